package io.pmedia.testing;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/**
 * The RSA key pair tests sign and verify tokens with: generated once per test run into a temporary directory,
 * never committed. Its files are found through system properties so that every class loader of the test JVM
 * (Quarkus loads tests and resources separately) sees the same pair.
 */
public final class TestKeys {

    public static final String KEY_ID = "test-1";
    /** A second, "previous" key that the JWKS still carries, as during a key rotation. */
    public static final String PREVIOUS_KEY_ID = "test-0";
    public static final String ISSUER = "https://pmedia.local/gateway";
    public static final String AUDIENCE = "pmedia-api";
    private static final String DIR_PROPERTY = "pmediatest.keys.dir";

    private TestKeys() {
    }

    /** The directory holding {@code private.pem}, {@code public.pem} and {@code jwks.json}, created on first use. */
    public static synchronized Path dir() {
        String existing = System.getProperty(DIR_PROPERTY);
        if (existing != null) {
            return Path.of(existing);
        }
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair pair = generator.generateKeyPair();
            KeyPair previous = generator.generateKeyPair();
            Path dir = Files.createTempDirectory("pmedia-test-keys");
            Files.writeString(dir.resolve("private.pem"), pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
            Files.writeString(dir.resolve("previous-private.pem"),
                    pem("PRIVATE KEY", previous.getPrivate().getEncoded()));
            Files.writeString(dir.resolve("public.pem"), pem("PUBLIC KEY", pair.getPublic().getEncoded()));
            Files.writeString(dir.resolve("jwks.json"), "{\"keys\":[" + jwk((RSAPublicKey) pair.getPublic(), KEY_ID)
                    + "," + jwk((RSAPublicKey) previous.getPublic(), PREVIOUS_KEY_ID) + "]}");
            System.setProperty(DIR_PROPERTY, dir.toString());
            return dir;
        } catch (Exception e) {
            throw new IllegalStateException("cannot generate test keys", e);
        }
    }

    public static PrivateKey privateKey() {
        return readPrivateKey("private.pem");
    }

    /** The previous key: tokens it signed must still verify while the JWKS carries it. */
    public static PrivateKey previousPrivateKey() {
        return readPrivateKey("previous-private.pem");
    }

    private static PrivateKey readPrivateKey(String name) {
        try {
            String pem = Files.readString(dir().resolve(name));
            byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", "").trim());
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the test private key", e);
        }
    }

    /** A JSON Web Key for one RSA public key. */
    public static String jwk(RSAPublicKey key, String kid) {
        return "{\"kty\":\"RSA\",\"kid\":\"" + kid + "\",\"use\":\"sig\",\"alg\":\"RS256\",\"n\":\""
                + base64Url(key.getModulus()) + "\",\"e\":\"" + base64Url(key.getPublicExponent()) + "\"}";
    }

    private static String base64Url(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes.length > 1 && bytes[0] == 0) {
            bytes = java.util.Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
