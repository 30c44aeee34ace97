package io.pmedia.client;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.pmedia.client.invoker.ContractOperations;

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

    /**
     * The operations docs/openapi.yaml marks {@code x-pmedia-idempotent: true} (a token request, the realtime creates,
     * which are idempotent by client-request-id, a preview, an upload URL), as generated into
     * {@link ContractOperations}: the list is the document's, not kept here. Each is its method and its path template
     * as a pattern, a {@code {name}} being one segment.
     */
    private static final List<Map.Entry<String, Pattern>> MARKED_IDEMPOTENT = ContractOperations.ALL.stream()
            .filter(operation -> operation.markedIdempotent)
            .map(operation -> Map.entry(operation.method.toUpperCase(Locale.ROOT), Pattern.compile(
                    Arrays.stream(operation.path.split("\\{[^}]+}", -1)).map(Pattern::quote)
                            .collect(Collectors.joining("[^/]+")))))
            .collect(Collectors.toUnmodifiableList());

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

    /**
     * Whether a request may be sent again after a 429 or 503 without doing its work twice: GET, HEAD, PUT, DELETE and
     * OPTIONS by HTTP, and an operation the document marks {@code x-pmedia-idempotent: true}.
     */
    static boolean idempotent(String method, String path) {
        String verb = method.toUpperCase(Locale.ROOT);
        switch (verb) {
            case "GET" :
            case "HEAD" :
            case "PUT" :
            case "DELETE" :
            case "OPTIONS" :
                return true;
            default :
                return MARKED_IDEMPOTENT.stream()
                        .anyMatch(marked -> marked.getKey().equals(verb) && marked.getValue().matcher(path).matches());
        }
    }
}
