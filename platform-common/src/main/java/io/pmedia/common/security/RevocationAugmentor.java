package io.pmedia.common.security;

import java.security.Principal;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;

/**
 * Runs {@link RevocationCheck} once per request authenticated as a client, when Quarkus builds the request's
 * identity: before any resource method or permission check, and never for anonymous or operator calls. Its
 * refusals ({@code ApiException}) reach the error mappers like any other failure.
 */
@ApplicationScoped
public class RevocationAugmentor implements SecurityIdentityAugmentor {

    private final RevocationCheck check;
    private final boolean enabled;

    public RevocationAugmentor(RevocationCheck check, RevocationConfig config) {
        this.check = check;
        this.enabled = config.enabled();
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        UUID clientId = enabled ? clientOf(identity) : null;
        return clientId == null
                ? Uni.createFrom().item(identity)
                : check.requireActive(clientId).replaceWith(identity);
    }

    /** The client id of a vendor's identity; null for anyone else (Caller refuses those where a client is needed). */
    static UUID clientOf(SecurityIdentity identity) {
        if (identity.isAnonymous() || !identity.hasRole(Roles.CLIENT)) {
            return null;
        }
        Principal principal = identity.getPrincipal();
        String subject = principal instanceof JsonWebToken token ? token.getSubject() : principal.getName();
        try {
            return subject == null ? null : UUID.fromString(subject);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
