package io.pmedia.client;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What the SDK knows about an operation from its method and path alone: which credentials it takes and whether a
 * retry is safe. The generated Java client (the JDK HttpClient library) applies no credentials of its own, so the
 * table is here; {@code OperationsTest} checks it against the security requirements of docs/openapi.yaml.
 */
final class Operations {

    /** The credentials an operation takes. */
    enum Credential {
        /** None: the token endpoints, the public keys and the share pages. */
        NONE,
        /** The vendor's bearer token. */
        BEARER,
        /** The bearer token and the API key together (the earlier realtime form, {@code POST /video/demo}). */
        BEARER_AND_API_KEY,
        /** The API key or the bearer token ({@code GET /status/{transactionId}}). */
        API_KEY_OR_BEARER,
        /** The operator's admin token ({@code /admin/...}). */
        ADMIN
    }

    private static final List<String> PUBLIC_PATHS = List.of("/auth/token", "/getToken", "/.well-known/jwks.json");
    private static final Pattern STATUS = Pattern.compile("/status/[^/]+");
    private static final Pattern PREVIEW = Pattern.compile("/templates/[^/]+/preview");

    /**
     * POSTs that are safe to send twice: a token request (issues another token, changes nothing), the realtime
     * creates (idempotent by client-request-id: the same id and body answer the same acceptance, the request is
     * created once), a preview (draws a still, stores nothing) and an upload URL (nothing exists until the PUT).
     */
    private static final List<String> IDEMPOTENT_POSTS = List.of("/auth/token", "/media/demo", "/video/demo",
            "/media/task/uploads");

    private Operations() {
    }

    static Credential credential(String path) {
        if (PUBLIC_PATHS.contains(path) || path.startsWith("/v/")) {
            return Credential.NONE; // (/v/...: the public share pages of issue 21)
        }
        if (path.equals("/video/demo")) {
            return Credential.BEARER_AND_API_KEY;
        }
        if (STATUS.matcher(path).matches()) {
            return Credential.API_KEY_OR_BEARER;
        }
        if (path.equals("/admin") || path.startsWith("/admin/")) {
            return Credential.ADMIN;
        }
        return Credential.BEARER;
    }

    /** Whether a request may be sent again after a 429 or 503 without doing its work twice. */
    static boolean idempotent(String method, String path) {
        switch (method.toUpperCase(Locale.ROOT)) {
            case "GET" :
            case "HEAD" :
            case "PUT" :
            case "DELETE" :
            case "OPTIONS" :
                return true;
            case "POST" :
                return IDEMPOTENT_POSTS.contains(path) || PREVIEW.matcher(path).matches();
            default :
                return false;
        }
    }
}
