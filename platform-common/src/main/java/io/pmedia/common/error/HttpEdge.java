package io.pmedia.common.error;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.impl.RoutingContextInternal;

/**
 * The edge every service shares, the same over HTTP/1.1 and HTTP/2: the headers every answer carries
 * ({@code X-Content-Type-Options: nosniff} on all, {@code Cache-Control: no-store} on a JSON answer that sets no cache
 * rule of its own, for API answers are one client's and may carry a token or a secret; {@code Strict-Transport-Security}
 * on HTTPS), and the size limits of a request, answered with the 2.11 body: the request line
 * ({@code quarkus.http.limits.max-initial-line-length}, 414), the header block ({@code quarkus.http.limits
 * .max-header-size}, 431) and the body ({@code quarkus.http.limits.max-body-size}, 413), declared or not.
 *
 * <p>
 * Why the first two are measured here and not left to the HTTP codec: Vert.x rejects a request line or header block
 * over the codec's limits before any route runs, through {@code HttpServer#invalidRequestHandler}, whose default
 * answers the status with an empty body; Quarkus 3.34 creates the server itself and offers no way to set that
 * handler (quarkusio/quarkus#55082). So this class raises the codec's limits, through the supported
 * {@link HttpServerOptionsCustomizer}, to a hard cap far above the configured ones ({@value #CODEC_CAP} bytes, or the
 * configured limit when larger), and enforces the configured limits itself as the first route. Only a request beyond
 * the hard cap still meets the codec's bare answer (same status, {@code Connection: close}, no body).
 */
@Singleton
public class HttpEdge implements HttpServerOptionsCustomizer {

    /**
     * What the codec reads at most of a request line or header block: the memory a hostile request's head can hold,
     * as much as the gateway accepts of a body (1 MiB). Up to it, every oversized head gets the error body.
     */
    static final int CODEC_CAP = 1024 * 1024;
    /** " HTTP/1.1" after the target: the request line the codec measures, without its CRLF. */
    private static final int VERSION_LENGTH = 9;
    /** ": " between a header's name and value; the codec counts header lines without their CRLF. */
    private static final int HEADER_SEPARATOR = 2;

    private static final String TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
    /** RFC 9110 8.3.1: {@code type "/" subtype *( OWS ";" OWS parameter )}, a parameter's value a token or quoted. */
    private static final Pattern MEDIA_TYPE = Pattern.compile("\\s*" + TOKEN + "/" + TOKEN + "(\\s*;\\s*" + TOKEN + "=("
            + TOKEN + "|\"([^\"\\\\]|\\\\.)*\"))*\\s*;?\\s*");

    /** Set on a request whose body {@link #unsizedBodies} reads. */
    private static final String BODY_READ = HttpEdge.class.getName() + ".body-read";
    private static final Pattern DOT = Pattern.compile("%2[eE]");
    /** A run of percent-encoded bytes: the bytes of one or more characters, which UTF-8 never splits across runs. */
    private static final Pattern ENCODED_BYTES = Pattern.compile("(%[0-9A-Fa-f]{2})+");

    private final int maxRequestLine;
    private final long maxHeaderBytes;
    private final long maxBodyBytes;
    private final BodyHandler unsizedBodies;

    public HttpEdge(
            @ConfigProperty(name = "quarkus.http.limits.max-initial-line-length", defaultValue = "4096") int maxRequestLine,
            @ConfigProperty(name = "quarkus.http.limits.max-header-size", defaultValue = "20K") MemorySize maxHeaderSize,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10M") MemorySize maxBodySize) {
        this.maxRequestLine = maxRequestLine;
        this.maxHeaderBytes = maxHeaderSize.asLongValue();
        this.maxBodyBytes = maxBodySize.asLongValue();
        // Form fields stay out of the query parameters; nothing is ever written to disk.
        this.unsizedBodies = BodyHandler.create(false).setBodyLimit(maxBodyBytes).setMergeFormAttributes(false);
    }

    /**
     * Plain HTTP is HTTP/1.1 only: an {@code h2c} upgrade of a request without a body (the JDK's HTTP client asks for
     * one by default) made Quarkus REST read the request twice and answer 500. HTTP/2 stays on HTTPS (ALPN).
     */
    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        raiseCodecLimits(options);
        options.setHttp2ClearTextEnabled(false);
    }

    /**
     * HTTP/2 bounds a header block by its own setting, {@code SETTINGS_MAX_HEADER_LIST_SIZE} (Vert.x: 8 KiB), counted
     * as HPACK counts it (32 bytes more per header): left alone, an 8,000-byte header was a bodyless 431 and 19 KB a
     * {@code GOAWAY}, where HTTP/1.1 takes 20 KiB. Raised like the HTTP/1.1 codec's, so the configured limit is
     * measured by {@link #check} for both protocols, with the same error body.
     */
    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        raiseCodecLimits(options);
        options.getInitialSettings().setMaxHeaderListSize(Math.max(CODEC_CAP, 2 * maxHeaderBytes));
    }

    private void raiseCodecLimits(HttpServerOptions options) {
        options.setMaxInitialLineLength(Math.max(CODEC_CAP, maxRequestLine));
        options.setMaxHeaderSize((int) Math.max(CODEC_CAP, maxHeaderBytes));
    }

    void install(@Observes Router router) {
        // Runs before every other route, Quarkus' own body-size check included (it would answer 413 with no body).
        router.route().order(Integer.MIN_VALUE).handler(this::check);
        router.route().order(Integer.MIN_VALUE + 1).handler(HttpEdge::emptyBodyRead);
    }

    /**
     * A body read here ({@link #unsizedBodies}) that had no bytes leaves the context without a buffer, and Quarkus
     * REST then reads the request again: an HTTP/2 POST without DATA failed with 500 ("Request has already been
     * read"), an empty chunked body hung. The empty buffer tells it the body was read, and was empty.
     */
    private static void emptyBodyRead(RoutingContext ctx) {
        if (Boolean.TRUE.equals(ctx.get(BODY_READ)) && ctx.body().buffer() == null) {
            ((RoutingContextInternal) ctx).setBody(Buffer.buffer());
        }
        ctx.next();
    }

    private void check(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        boolean https = "https".equals(request.scheme());
        ctx.addHeadersEndHandler(ignored -> {
            answerHeaders(ctx.response().headers(), https);
            if (ctx.response().getStatusCode() == 401) {
                challenge(ctx.response().headers(), request.getHeader("Authorization"));
            }
        });
        int requestLine = request.method().name().length() + 1 + request.uri().length() + VERSION_LENGTH;
        if (requestLine > maxRequestLine) {
            refuse(ctx, 414, "request URI is too long: the request line has " + requestLine
                    + " bytes, the limit is " + maxRequestLine);
            return;
        }
        if (request.authority() == null) {
            // HTTP/1.0 may leave it out, and JAX-RS's absolute URI of the request is then null (a 500 on a 404)
            HttpFailureHandler.write(ctx, 400, ErrorCode.BAD_REQUEST, "the request has no Host header: send the"
                    + " host it is for (HTTP/1.1 requires it)");
            return;
        }
        if (hasDotSegment(request.path())) {
            // Vert.x resolves them before it routes (an encoded one too): /v/%2e%2e/admin/clients would reach the
            // operator's API through the viewers' prefix, which an edge routing /v/* to the gateway did not mean.
            HttpFailureHandler.write(ctx, 400, ErrorCode.BAD_REQUEST, "the request path has a '.' or '..' segment"
                    + " (percent-encoded or not): send the path it stands for");
            return;
        }
        String notUtf8 = notUtf8(request.path());
        if (notUtf8 == null) {
            notUtf8 = notUtf8(request.query());
        }
        if (notUtf8 != null) {
            // Decoded as they are, such bytes became U+FFFD: %FF%FE and %FE%FF named one campaign, one file, one id.
            HttpFailureHandler.write(ctx, 400, ErrorCode.BAD_REQUEST, "the request target has percent-encoded bytes"
                    + " that are not UTF-8 (" + notUtf8 + "): encode text as UTF-8 before percent-encoding it");
            return;
        }
        long headerBytes = 0;
        for (Map.Entry<String, String> header : request.headers()) {
            headerBytes += header.getKey().length() + HEADER_SEPARATOR + header.getValue().length();
        }
        if (headerBytes > maxHeaderBytes) {
            refuse(ctx, 431, "request headers are too large: " + headerBytes + " bytes in all, the limit is "
                    + maxHeaderBytes);
            return;
        }
        String contentType = request.getHeader("Content-Type");
        if (contentType != null && !MEDIA_TYPE.matcher(contentType).matches()) {
            // Quarkus REST would fail to parse it while choosing a resource method and answer 500.
            HttpFailureHandler.write(ctx, 415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, "Content-Type '"
                    + (contentType.length() > 100 ? contentType.substring(0, 100) + "..." : contentType)
                    + "' is not a media type (type/subtype; parameters): send application/json");
            return;
        }
        String length = request.getHeader("Content-Length");
        if (length != null && declaredLength(length) > maxBodyBytes) {
            refuse(ctx, 413, bodyTooLarge());
        } else if (length == null && mayStreamABody(request)) {
            ctx.put(BODY_READ, true);
            unsizedBodies.handle(ctx);
        } else {
            ctx.next();
        }
    }

    /** Whether the raw {@code path} has a segment that is {@code .} or {@code ..}, its dots percent-encoded or not. */
    static boolean hasDotSegment(String path) {
        if (path == null || !path.contains(".") && !path.contains("%2")) {
            return false;
        }
        for (String segment : path.split("/", -1)) {
            String dots = DOT.matcher(segment).replaceAll(".");
            if (dots.equals(".") || dots.equals("..")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The first run of percent-encoded bytes in the raw {@code target} (a path or a query) that is not UTF-8, at most
     * 30 characters of it, or null when every run decodes.
     */
    static String notUtf8(String target) {
        if (target == null || target.indexOf('%') < 0) {
            return null;
        }
        Matcher run = ENCODED_BYTES.matcher(target);
        while (run.find()) {
            String escapes = run.group();
            byte[] bytes = new byte[escapes.length() / 3];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) Integer.parseInt(escapes, 3 * i + 1, 3 * i + 3, 16);
            }
            try {
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            } catch (CharacterCodingException e) {
                return escapes.length() > 30 ? escapes.substring(0, 30) + "..." : escapes;
            }
        }
        return null;
    }

    /**
     * RFC 9110 11.6.1: a 401 names the scheme that would be accepted. The credentials of the token endpoint may come
     * as Basic (RFC 6749 2.3.1), whose refusal names Basic; every other 401 is for a bearer token (RFC 6750).
     */
    private static void challenge(MultiMap headers, String authorization) {
        if (!headers.contains("WWW-Authenticate")) {
            boolean basic = authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6);
            headers.set("WWW-Authenticate", (basic ? "Basic" : "Bearer") + " realm=\"pmedia\"");
        }
    }

    private static void answerHeaders(MultiMap headers, boolean https) {
        headers.set("X-Content-Type-Options", "nosniff");
        String type = headers.get("Content-Type");
        if (type != null && type.startsWith("application/json") && !headers.contains("Cache-Control")) {
            headers.set("Cache-Control", "no-store");
        }
        if (https) {
            headers.set("Strict-Transport-Security", "max-age=31536000");
        }
    }

    /**
     * A chunked HTTP/1.1 body: Quarkus REST would answer a too large one with a bare 413 of its own, so it is read
     * here first, up to the limit, by Vert.x Web's {@link BodyHandler}; beyond the limit that fails the request with
     * 413, which {@link HttpFailureHandler} answers with the error body. An HTTP/2 stream of no declared size is not:
     * Quarkus REST pauses every request it serves, and pausing an HTTP/2 request already read to its end throws
     * ("Request has already been read"), so every such POST to a JAX-RS endpoint (a rotate call without a body, a
     * streamed JSON body) was a 500. Quarkus REST reads it itself; one over the limit has its connection closed
     * (GOAWAY) instead of the 413 body. The gateway's forwarded routes read their bodies with a limit of their own.
     */
    private static boolean mayStreamABody(HttpServerRequest request) {
        return request.headers().contains("Transfer-Encoding") && request.version() != HttpVersion.HTTP_2;
    }

    /** The 413 message, also for a chunked body that grows over the limit while it is read. */
    String bodyTooLarge() {
        return "request body is larger than the limit of " + maxBodyBytes + " bytes";
    }

    private static long declaredLength(String contentLength) {
        try {
            return Long.parseLong(contentLength.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * 414 and 431 carry {@code BAD_REQUEST}, 413 {@code PAYLOAD_TOO_LARGE}: the code set of contracts.md has no
     * code of its own for the first two (docs/decisions.md). An HTTP/1.1 connection is closed: what was not read of
     * the request must not be taken for the next one. HTTP/2 forbids the header (RFC 9113 8.2.2) and needs nothing of
     * the kind: the stream ends with the answer.
     */
    private static void refuse(RoutingContext ctx, int status, String message) {
        ErrorCode code = status == 413 ? ErrorCode.PAYLOAD_TOO_LARGE : ErrorCode.BAD_REQUEST;
        if (ctx.request().version() != HttpVersion.HTTP_2) {
            ctx.response().putHeader("Connection", "close");
        }
        HttpFailureHandler.write(ctx, status, code, message);
    }
}
