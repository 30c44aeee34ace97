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
    public static final String ISSUER = "https://pmedia.local/gateway";
    public static final String AUDIENCE = "pmedia-api";
    private static final String DIR_PROPERTY = "pmedia.test.keys.dir";

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
            Path dir = Files.createTempDirectory("pmedia-test-keys");
            Files.writeString(dir.resolve("private.pem"), pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
            Files.writeString(dir.resolve("public.pem"), pem("PUBLIC KEY", pair.getPublic().getEncoded()));
            Files.writeString(dir.resolve("jwks.json"), jwks((RSAPublicKey) pair.getPublic(), KEY_ID));
            System.setProperty(DIR_PROPERTY, dir.toString());
            return dir;
        } catch (Exception e) {
            throw new IllegalStateException("cannot generate test keys", e);
        }
    }

    public static PrivateKey privateKey() {
        try {
            String pem = Files.readString(dir().resolve("private.pem"));
            byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", "").trim());
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the test private key", e);
        }
    }

    /** A JWKS document holding one RSA public key. */
    public static String jwks(RSAPublicKey key, String kid) {
        return "{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"" + kid + "\",\"use\":\"sig\",\"alg\":\"RS256\",\"n\":\""
                + base64Url(key.getModulus()) + "\",\"e\":\"" + base64Url(key.getPublicExponent()) + "\"}]}";
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
