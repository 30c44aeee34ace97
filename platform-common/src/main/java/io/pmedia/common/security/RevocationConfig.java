package io.pmedia.common.security;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How every service checks that a token's client still exists (docs/security.md, "Revocation"). */
@ConfigMapping(prefix = "pmedia.revocation")
public interface RevocationConfig {

    /** Off only on the gateway, which checks clients against its own registry. */
    @WithDefault("true")
    boolean enabled();

    /** How long the gateway's answer for a client is reused: a deleted client's tokens stop within this. */
    @WithDefault("2s")
    Duration cacheTtl();

    /**
     * While the gateway cannot answer, a client it confirmed within this long is let through. A client cannot be
     * deleted while the gateway is down, so this admits no deleted client; others get 503.
     */
    @WithDefault("60s")
    Duration staleIfError();

    /** The {@code Retry-After} of the 503 answered when no recent answer can stand in. */
    @WithDefault("5s")
    Duration retryAfter();
}
