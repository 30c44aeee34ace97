package io.pmedia.common.security;

/** The {@code groups} a gateway-issued token carries; services authorize on these, never on raw credentials. */
public final class Roles {

    /** A vendor: owns realtime requests, tasks, try-ons, campaigns. The token's {@code sub} is its client id. */
    public static final String CLIENT = "client";
    /** The platform operator, for {@code /admin/...} calls the gateway forwards after checking the admin token. */
    public static final String OPERATOR = "operator";

    private Roles() {
    }
}
