package io.pmedia.common.net;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a fetch produced: any status (non-2xx included; deciding what it means is the caller's business).
 *
 * @param headers lower-cased header names
 * @param body the body when it was kept in memory, else null
 * @param file the file the body was streamed to, else null
 */
public record FetchResponse(int status, Map<String, List<String>> headers, byte[] body, Path file, long size,
        URI finalUrl, Duration latency) {

    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    public String contentType() {
        return header("content-type");
    }

    public boolean successful() {
        return status >= 200 && status < 300;
    }

    /** The body as UTF-8 text, cut to {@code max} characters (for logs and delivery records). */
    public String bodyText(int max) {
        if (body == null) {
            return "";
        }
        String text = new String(body, 0, Math.min(body.length, max * 4), StandardCharsets.UTF_8);
        return text.length() <= max ? text : text.substring(0, max);
    }
}
