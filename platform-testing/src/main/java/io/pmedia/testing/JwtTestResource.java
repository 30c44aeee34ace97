package io.pmedia.testing;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Configures a service under test to verify tokens signed with {@link TestKeys} (what the gateway's JWKS would
 * give it), and the gateway itself to sign with them.
 */
public class JwtTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        var dir = TestKeys.dir();
        return Map.of(
                "mp.jwt.verify.publickey.location", dir.resolve("jwks.json").toUri().toString(),
                "mp.jwt.verify.issuer", TestKeys.ISSUER,
                "mp.jwt.verify.audiences", TestKeys.AUDIENCE,
                "pmedia.jwt.private-key", dir.resolve("private.pem").toString(),
                "pmedia.jwt.key-id", TestKeys.KEY_ID,
                "pmedia.jwt.public-keys", dir.resolve("jwks.json").toString(),
                "pmedia.jwt.issuer", TestKeys.ISSUER,
                "pmedia.jwt.audience", TestKeys.AUDIENCE);
    }

    @Override
    public void stop() {
    }
}
