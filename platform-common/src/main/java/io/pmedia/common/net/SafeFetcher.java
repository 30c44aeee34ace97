package io.pmedia.common.net;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.tracing.TracingPolicy;

/**
 * The one way pmedia dials a URL that came from outside (assets, try-on images, webhooks). Every hop, redirects
 * included, goes through {@link DestinationPolicy}: the host is resolved once, every address is checked, and the
 * connection goes to the checked address while TLS and {@code Host} still speak to the name. Bodies are size- and
 * time-limited and can be streamed to a file.
 */
@ApplicationScoped
public class SafeFetcher {

    private final Vertx vertx;
    private final DestinationPolicy policy;
    private final HttpClient client;
    private final String userAgent;

    public SafeFetcher(Vertx vertx, DestinationPolicy policy, FetchConfig config) {
        this.vertx = vertx;
        this.policy = policy;
        this.userAgent = config.userAgent();
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) config.connectTimeout().toMillis())
                .setMaxPoolSize(config.maxConnections())
                .setForceSni(true)
                .setVerifyHost(true)
                .setKeepAlive(true)
                .setDecompressionSupported(false)
                // Vendor and third-party hosts: no client spans of their own and, above all, no traceparent sent
                // to them; the caller's span (a render, a webhook attempt) stands for the call.
                .setTracingPolicy(TracingPolicy.IGNORE));
    }

    @PreDestroy
    void close() {
        client.close();
    }

    public DestinationPolicy policy() {
        return policy;
    }

    /** Performs the request. Fails with {@link FetchException} only; any HTTP status is a response. */
    public Uni<FetchResponse> fetch(FetchRequest request) {
        long deadline = System.nanoTime() + request.timeout().toNanos();
        return hop(request, request.url(), request.maxRedirects(), deadline, System.nanoTime());
    }

    private Uni<FetchResponse> hop(FetchRequest request, URI url, int redirectsLeft, long deadline, long started) {
        return Uni.createFrom().item(() -> policy.check(url))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .flatMap(destination -> send(request, destination, deadline, started, redirectsLeft > 0))
                .flatMap(response -> {
                    if (!isRedirect(response.status()) || redirectsLeft <= 0) {
                        return Uni.createFrom().item(response);
                    }
                    String location = response.header("location");
                    if (location == null || location.isBlank()) {
                        return Uni.createFrom().failure(new FetchException(FetchException.Reason.REDIRECT,
                                "redirect from '" + url + "' has no Location"));
                    }
                    URI next;
                    try {
                        next = url.resolve(location.trim());
                    } catch (IllegalArgumentException e) {
                        return Uni.createFrom().failure(new FetchException(FetchException.Reason.REDIRECT,
                                "redirect from '" + url + "' has an invalid Location"));
                    }
                    boolean keepMethod = response.status() == 307 || response.status() == 308;
                    FetchRequest followed = keepMethod
                            ? request
                            : new FetchRequest("GET", next, request.headers(), null, request.timeout(),
                                    request.maxBytes(), request.maxRedirects(), request.acceptedTypes(),
                                    request.saveTo());
                    return hop(followed, next, redirectsLeft - 1, deadline, started);
                })
                .onFailure(e -> !(e instanceof FetchException))
                // The vendor learns that the host could not be reached, never how (refused, reset, unreachable):
                // the difference would map the network behind the platform. The cause stays for the logs.
                .transform(e -> new FetchException(FetchException.Reason.CONNECTION,
                        "could not reach '" + url.getHost() + "'", e));
    }

    private Uni<FetchResponse> send(FetchRequest request, DestinationPolicy.Destination destination, long deadline,
            long started, boolean redirectWillBeFollowed) {
        long remainingMillis = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.valueOf(request.method()))
                .setHost(destination.host())
                .setPort(destination.port())
                .setSsl(destination.tls())
                .setURI(destination.requestTarget())
                .setServer(SocketAddress.inetSocketAddress(destination.port(),
                        destination.address().getHostAddress()))
                .setFollowRedirects(false)
                .putHeader("User-Agent", userAgent);
        request.headers().forEach(options::putHeader);

        Promise<FetchResponse> result = Promise.promise();
        long timer = vertx.setTimer(remainingMillis, id -> result.tryFail(new FetchException(
                FetchException.Reason.TIMEOUT, "no complete response from '" + destination.host() + "' within "
                        + request.timeout().toSeconds() + " s")));
        client.request(options).onComplete(opened -> {
            if (opened.failed()) {
                result.tryFail(opened.cause());
                return;
            }
            HttpClientRequest httpRequest = opened.result();
            result.future().onFailure(failure -> httpRequest.reset());
            Buffer body = request.body() == null ? Buffer.buffer() : Buffer.buffer(request.body());
            httpRequest.send(body).onComplete(answered -> {
                if (answered.failed()) {
                    result.tryFail(answered.cause());
                } else {
                    read(answered.result(), request, destination, started, redirectWillBeFollowed, result);
                }
            });
        });
        return Uni.createFrom().completionStage(() -> result.future().toCompletionStage())
                .eventually(() -> vertx.cancelTimer(timer))
                .onFailure(TimeoutException.class)
                .transform(e -> new FetchException(FetchException.Reason.TIMEOUT, "timed out", e));
    }

    private void read(HttpClientResponse response, FetchRequest request, DestinationPolicy.Destination destination,
            long started, boolean redirectWillBeFollowed, Promise<FetchResponse> result) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        response.headers().forEach(entry -> headers
                .computeIfAbsent(entry.getKey().toLowerCase(Locale.ROOT), key -> new ArrayList<>())
                .add(entry.getValue()));
        int status = response.statusCode();
        String where = "'" + destination.host() + "'";
        if (isRedirect(status) && redirectWillBeFollowed) {
            response.request().reset();
            result.tryComplete(done(status, headers, null, null, 0, destination, started));
            return;
        }
        boolean ok = status >= 200 && status < 300;
        String contentLength = response.getHeader("content-length");
        if (contentLength != null && parseLong(contentLength) > request.maxBytes()) {
            result.tryFail(tooLarge(where, request.maxBytes()));
            return;
        }
        if (ok && !request.acceptedTypes().isEmpty()) {
            String type = response.getHeader("content-type");
            String normalized = type == null ? "" : type.toLowerCase(Locale.ROOT).trim();
            if (request.acceptedTypes().stream().noneMatch(normalized::startsWith)) {
                // What the host answered is not echoed (it would tell what runs there); what we accept is.
                result.tryFail(new FetchException(FetchException.Reason.CONTENT_TYPE, where
                        + " did not answer with an accepted content type (" + String.join(" or ",
                                request.acceptedTypes())
                        + ")"));
                return;
            }
        }
        if (ok && request.saveTo() != null) {
            stream(response, request, request.saveTo(), where, status, headers, destination, started, result);
            return;
        }
        Buffer collected = Buffer.buffer();
        long[] size = {0};
        response.handler(chunk -> {
            size[0] += chunk.length();
            if (size[0] > request.maxBytes()) {
                result.tryFail(tooLarge(where, request.maxBytes()));
            } else {
                collected.appendBuffer(chunk);
            }
        });
        response.exceptionHandler(result::tryFail);
        response.endHandler(ignored -> result.tryComplete(
                done(status, headers, collected.getBytes(), null, size[0], destination, started)));
    }

    private void stream(HttpClientResponse response, FetchRequest request, Path target, String where, int status,
            Map<String, List<String>> headers, DestinationPolicy.Destination destination, long started,
            Promise<FetchResponse> result) {
        response.pause();
        vertx.fileSystem().open(target.toString(), new OpenOptions().setWrite(true).setCreate(true)
                .setTruncateExisting(true)).onComplete(opened -> {
                    if (opened.failed()) {
                        result.tryFail(new FetchException(FetchException.Reason.CONNECTION,
                                "cannot store the body of " + where, opened.cause()));
                        return;
                    }
                    AsyncFile file = opened.result();
                    result.future().onFailure(failure -> file.close());
                    long[] size = {0};
                    response.handler(chunk -> {
                        size[0] += chunk.length();
                        if (size[0] > request.maxBytes()) {
                            result.tryFail(tooLarge(where, request.maxBytes()));
                            return;
                        }
                        file.write(chunk);
                        if (file.writeQueueFull()) {
                            response.pause();
                            file.drainHandler(drained -> response.resume());
                        }
                    });
                    response.exceptionHandler(result::tryFail);
                    response.endHandler(ignored -> file.close().onComplete(closed -> {
                        if (closed.failed()) {
                            result.tryFail(closed.cause());
                        } else {
                            result.tryComplete(done(status, headers, null, target, size[0], destination, started));
                        }
                    }));
                    response.resume();
                });
    }

    private static FetchResponse done(int status, Map<String, List<String>> headers, byte[] body, Path file,
            long size, DestinationPolicy.Destination destination, long started) {
        return new FetchResponse(status, headers, body, file, size, destination.uri(),
                Duration.ofNanos(System.nanoTime() - started));
    }

    private static FetchException tooLarge(String where, long max) {
        return new FetchException(FetchException.Reason.TOO_LARGE,
                "the body from " + where + " is larger than " + max + " bytes");
    }

    private static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    private static long parseLong(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
