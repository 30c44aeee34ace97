package io.pmedia.gateway.security;

import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.security.Roles;
import io.pmedia.gateway.config.GatewayConfig;
import io.pmedia.gateway.service.RequestAuthenticator;
import io.pmedia.gateway.service.Secrets;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * The operator's admin token and the services' internal token, turned into roles ({@value Roles#OPERATOR},
 * {@value #INTERNAL}) that are declared where they are needed ({@code @RolesAllowed} on the operator's and the
 * internal resources, {@code Access.OPERATOR} in the route table), never checked by hand in a method. Any other
 * credential is no identity here (vendor tokens are the forwarder's business); without a configured token nobody
 * gets its role.
 */
@ApplicationScoped
public class ServiceTokenMechanism implements HttpAuthenticationMechanism {

    /** The role of the services' calls to the gateway's internal API. */
    public static final String INTERNAL = "internal";

    private final Optional<String> adminToken;
    private final Optional<String> internalToken;

    public ServiceTokenMechanism(GatewayConfig config) {
        this.adminToken = config.adminToken().filter(token -> !token.isBlank());
        this.internalToken = config.internalToken().filter(token -> !token.isBlank());
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        String token = RequestAuthenticator.bearerToken(context.request().getHeader("Authorization"));
        if (token != null && adminToken.isPresent() && Secrets.constantTimeEquals(token, adminToken.get())) {
            return Uni.createFrom().item(identity(Roles.OPERATOR));
        }
        if (token != null && internalToken.isPresent() && Secrets.constantTimeEquals(token, internalToken.get())) {
            return Uni.createFrom().item(identity(INTERNAL));
        }
        return Uni.createFrom().optional(Optional.empty());
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", "Bearer"));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of();
    }

    @Override
    public int getPriority() {
        // Before smallrye-jwt's mechanism, which would take the admin token for a JWT and fail the request.
        return DEFAULT_PRIORITY + 1000;
    }

    private static SecurityIdentity identity(String role) {
        return QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal(role)).addRole(role).build();
    }
}
