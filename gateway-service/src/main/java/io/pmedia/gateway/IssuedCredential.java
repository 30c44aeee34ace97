package io.pmedia.gateway;

/**
 * A credential just issued to a client (at onboarding or a rotation): the only time its plain value exists outside
 * the caller's hands, since only its hash is stored.
 */
public record IssuedCredential(Client client, String value) {
}
