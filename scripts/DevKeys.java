import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The dev keys of ./pmedia, with the JDK alone (java's single-file source launcher; no openssl):
 *
 * <pre>
 *   java scripts/DevKeys.java KEYS_DIR [KID]
 * </pre>
 *
 * Creates in KEYS_DIR whatever of these is missing, each file mode 600, and leaves existing files alone:
 * <ul>
 * <li>{@code jwt-signing.pem}: the RSA 2048 key that signs tokens, PKCS#8 PEM;</li>
 * <li>{@code jwks.json}: its public half as a JWKS ({@code kid} KID, default {@code dev-1}, RS256), rewritten from
 * the key whenever it is missing;</li>
 * <li>{@code tls.crt} / {@code tls.key}: a self-signed certificate for {@code localhost}, {@code 127.0.0.1} and
 * {@code ::1} (825 days) and its PKCS#8 key. The JDK has no public API that builds a certificate, so its own
 * {@code keytool} makes one in a throwaway PKCS#12 store, from which both halves are exported as PEM.</li>
 * </ul>
 * Prints one line per file written; on failure one line with the reason and exit status 1. Never prints a key.
 */
public class DevKeys {

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.out.println("usage: DevKeys KEYS_DIR [KID]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        String kid = args.length > 1 ? args[1] : "dev-1";
        try {
            Files.createDirectories(dir);
            Path signing = dir.resolve("jwt-signing.pem");
            Path jwks = dir.resolve("jwks.json");
            if (!nonEmpty(signing)) {
                KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
                generator.initialize(2048);
                write(signing, pem("PRIVATE KEY", generator.generateKeyPair().getPrivate().getEncoded()));
                Files.deleteIfExists(jwks);
            }
            if (!nonEmpty(jwks)) {
                write(jwks, jwks(readPrivateKey(signing), kid));
            }
            if (!nonEmpty(dir.resolve("tls.crt")) || !nonEmpty(dir.resolve("tls.key"))) {
                selfSignedCertificate(dir);
            }
        } catch (Exception e) {
            System.out.println(e.getMessage() != null ? e.getMessage() : e.toString());
            System.exit(1);
        }
    }

    /** The JWKS of the signing key: its modulus and public exponent, unsigned big-endian, base64url (RFC 7518). */
    static String jwks(RSAPrivateCrtKey key, String kid) {
        return "{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"" + kid + "\",\"use\":\"sig\",\"alg\":\"RS256\",\"n\":\""
                + base64url(key.getModulus()) + "\",\"e\":\"" + base64url(key.getPublicExponent()) + "\"}]}\n";
    }

    private static void selfSignedCertificate(Path dir) throws Exception {
        Path store = Files.createTempFile(dir, "tls", ".p12");
        Files.delete(store); // keytool creates it; an empty file is not a keystore
        String password = HexFormat.of().formatHex(randomBytes(16));
        try {
            // -storepass:env keeps the password off keytool's command line (visible in /proc to other users).
            keytool(password, "-genkeypair", "-alias", "tls", "-keyalg", "RSA", "-keysize", "2048",
                    "-validity", "825", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1,ip:::1",
                    "-ext", "EKU=serverAuth", "-storetype", "PKCS12", "-keystore", store.toString(),
                    "-storepass:env", "DEVKEYS_STOREPASS");
            KeyStore keyStore = KeyStore.getInstance("PKCS12");
            try (var in = Files.newInputStream(store)) {
                keyStore.load(in, password.toCharArray());
            }
            PrivateKey key = (PrivateKey) keyStore.getKey("tls", password.toCharArray());
            Certificate certificate = keyStore.getCertificate("tls");
            write(dir.resolve("tls.key"), pem("PRIVATE KEY", key.getEncoded()));
            write(dir.resolve("tls.crt"), pem("CERTIFICATE", certificate.getEncoded()));
        } finally {
            Files.deleteIfExists(store);
        }
    }

    private static void keytool(String password, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(Arrays.asList(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("DEVKEYS_STOREPASS", password);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool could not make the dev TLS certificate: " + output);
        }
    }

    private static RSAPrivateCrtKey readPrivateKey(Path file) throws Exception {
        String text = Files.readString(file);
        String body = text.replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");
        if (!text.contains("-----BEGIN PRIVATE KEY-----")) {
            throw new IOException(file + " is not a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)");
        }
        PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(
                Base64.getDecoder().decode(body)));
        if (!(key instanceof RSAPrivateCrtKey crt)) {
            throw new IOException(file + " holds no RSA CRT key, so its public half cannot be derived");
        }
        return crt;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static String base64url(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes.length > 1 && bytes[0] == 0) {
            bytes = Arrays.copyOfRange(bytes, 1, bytes.length); // the sign byte is not part of the value
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Writes through a mode-600 temporary file in the same directory, then moves it in place. */
    private static void write(Path file, String content) throws IOException {
        Path tmp = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(tmp, content, StandardCharsets.US_ASCII);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        System.out.println("wrote " + file);
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }

    private static boolean nonEmpty(Path file) throws IOException {
        return Files.isRegularFile(file) && Files.size(file) > 0;
    }
}
