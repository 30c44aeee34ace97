package io.pmedia.common.net;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What to fetch and under which limits. Immutable; start from {@link #get(URI)} or {@link #post(URI, byte[])} and
 * refine with the {@code with...} methods.
 *
 * @param acceptedTypes content-type prefixes a 2xx response must have (for example {@code image/}); empty: any
 * @param saveTo when set, a 2xx body is streamed to this file instead of memory
 * @param maxRedirects 0: a redirect is returned as the response, never followed
 */
public record FetchRequest(String method, URI url, Map<String, String> headers, byte[] body, Duration timeout,
        long maxBytes, int maxRedirects, List<String> acceptedTypes, Path saveTo) {

    public FetchRequest {
        headers = Map.copyOf(headers);
        acceptedTypes = List.copyOf(acceptedTypes);
    }

    public static FetchRequest get(URI url) {
        return new FetchRequest("GET", url, Map.of(), null, Duration.ofSeconds(30), 64L * 1024 * 1024, 3, List.of(),
                null);
    }

    public static FetchRequest post(URI url, byte[] body) {
        return new FetchRequest("POST", url, Map.of(), body, Duration.ofSeconds(15), 1024 * 1024, 0, List.of(),
                null);
    }

    public FetchRequest withHeader(String name, String value) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put(name, value);
        return new FetchRequest(method, url, all, body, timeout, maxBytes, maxRedirects, acceptedTypes, saveTo);
    }

    public FetchRequest withTimeout(Duration value) {
        return new FetchRequest(method, url, headers, body, value, maxBytes, maxRedirects, acceptedTypes, saveTo);
    }

    public FetchRequest withMaxBytes(long value) {
        return new FetchRequest(method, url, headers, body, timeout, value, maxRedirects, acceptedTypes, saveTo);
    }

    public FetchRequest withMaxRedirects(int value) {
        return new FetchRequest(method, url, headers, body, timeout, maxBytes, value, acceptedTypes, saveTo);
    }

    public FetchRequest withAcceptedTypes(List<String> value) {
        return new FetchRequest(method, url, headers, body, timeout, maxBytes, maxRedirects, value, saveTo);
    }

    public FetchRequest withSaveTo(Path value) {
        return new FetchRequest(method, url, headers, body, timeout, maxBytes, maxRedirects, acceptedTypes, value);
    }
}
