package io.pmedia.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

import io.pmedia.client.Operations.Credential;

/**
 * The HttpClient every generated operation and every upload or download of the SDK goes through: it adds the
 * credentials an operation takes (only to requests for the API's base URL: a presigned URL of the store never sees
 * a token) and sends idempotent requests again on 429 and 503 as {@link RetryPolicy} says. A 401 to a cached token
 * fetches a new one and tries once more (the token may have been revoked before its expiry).
 */
final class PmediaHttpClient extends HttpClient {

    private final HttpClient delegate;
    private final URI base;
    private final TokenCache tokens;
    private final String apiKey;
    private final String adminToken;
    private final RetryPolicy retries;

    PmediaHttpClient(HttpClient delegate, URI base, TokenCache tokens, String apiKey, String adminToken,
            RetryPolicy retries) {
        this.delegate = delegate;
        this.base = base;
        this.tokens = tokens;
        this.apiKey = apiKey;
        this.adminToken = adminToken;
        this.retries = retries;
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        String path = apiPath(request.uri());
        boolean idempotent = Operations.idempotent(request.method(), path == null ? "" : path);
        boolean renewed = false;
        for (int attempt = 1;; attempt++) {
            Authorized authorized = authorize(request, path);
            HttpResponse<T> response = delegate.send(authorized.request, handler);
            int status = response.statusCode();
            if (status == 401 && authorized.token != null && !renewed) {
                discard(response);
                tokens.invalidate(authorized.token);
                renewed = true;
                attempt--;
                continue;
            }
            Optional<Duration> wait = retryWait(response, idempotent, attempt);
            if (wait.isEmpty()) {
                return response;
            }
            retries.notify(request.method(), request.uri(), status, wait.get(), attempt);
            discard(response);
            Thread.sleep(wait.get().toMillis());
        }
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
            HttpResponse.BodyHandler<T> handler) {
        return sendAsync(request, handler, 1);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
            HttpResponse.BodyHandler<T> handler, HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        return sendAsync(request, handler, 1);
    }

    private <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
            HttpResponse.BodyHandler<T> handler, int attempt) {
        String path = apiPath(request.uri());
        boolean idempotent = Operations.idempotent(request.method(), path == null ? "" : path);
        Authorized authorized;
        try {
            authorized = authorize(request, path);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return delegate.sendAsync(authorized.request, handler).thenCompose(response -> {
            Optional<Duration> wait = retryWait(response, idempotent, attempt);
            if (wait.isEmpty()) {
                return CompletableFuture.completedFuture(response);
            }
            retries.notify(request.method(), request.uri(), response.statusCode(), wait.get(), attempt);
            discard(response);
            Executor later = CompletableFuture.delayedExecutor(wait.get().toMillis(), TimeUnit.MILLISECONDS);
            return CompletableFuture.supplyAsync(() -> request, later)
                    .thenCompose(again -> sendAsync(again, handler, attempt + 1));
        });
    }

    /** The wait before the next attempt, or empty when this answer is the caller's. */
    private Optional<Duration> retryWait(HttpResponse<?> response, boolean idempotent, int attempt) {
        int status = response.statusCode();
        if ((status != 429 && status != 503) || !idempotent || attempt >= retries.maxAttempts()) {
            return Optional.empty();
        }
        Duration wait = retryAfter(response.headers()).orElseGet(() -> retries.backoff(attempt));
        return wait.compareTo(retries.maxWait()) > 0 ? Optional.empty() : Optional.of(wait);
    }

    /** {@code Retry-After} in seconds (what pmedia sends); an HTTP date is not waited for. */
    static Optional<Duration> retryAfter(HttpHeaders headers) {
        Optional<String> value = headers.firstValue("Retry-After");
        if (value.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(value.get().trim()))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The path of {@code uri} relative to the API's base URL; null for any other origin (a presigned URL). */
    private String apiPath(URI uri) {
        if (!base.getScheme().equalsIgnoreCase(uri.getScheme()) || !base.getHost().equalsIgnoreCase(uri.getHost())
                || port(base) != port(uri)) {
            return null;
        }
        String basePath = base.getRawPath() == null ? "" : base.getRawPath().replaceAll("/+$", "");
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        return path.startsWith(basePath) ? path.substring(basePath.length()) : null;
    }

    private static int port(URI uri) {
        if (uri.getPort() != -1) {
            return uri.getPort();
        }
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    private Authorized authorize(HttpRequest request, String path) {
        if (path == null) {
            return new Authorized(request, null);
        }
        Credential credential = Operations.credential(path);
        HttpRequest.Builder copy = copy(request);
        String token = null;
        switch (credential) {
            case NONE :
                return new Authorized(request, null);
            case ADMIN :
                if (adminToken == null) {
                    throw new IllegalStateException(path + " is an operator call: build the client with adminToken");
                }
                copy.setHeader("Authorization", "Bearer " + adminToken);
                break;
            case BEARER_AND_API_KEY :
                if (apiKey == null) {
                    throw new IllegalStateException(path + " needs the API key: build the client with apiKey");
                }
                copy.setHeader("x-api-key", apiKey);
                token = bearer(copy, path);
                break;
            case API_KEY_OR_BEARER :
                if (tokens == null && apiKey != null) {
                    copy.setHeader("x-api-key", apiKey);
                } else {
                    token = bearer(copy, path);
                }
                break;
            default :
                token = bearer(copy, path);
        }
        return new Authorized(copy.build(), token);
    }

    private String bearer(HttpRequest.Builder copy, String path) {
        if (tokens == null) {
            throw new IllegalStateException(path + " needs a token: build the client with credentials");
        }
        String token = tokens.get();
        copy.setHeader("Authorization", "Bearer " + token);
        return token;
    }

    /** A builder for the same request (Java 11 has no HttpRequest.newBuilder(request, filter)). */
    private static HttpRequest.Builder copy(HttpRequest request) {
        HttpRequest.Builder copy = HttpRequest.newBuilder(request.uri())
                .method(request.method(), request.bodyPublisher().orElse(HttpRequest.BodyPublishers.noBody()))
                .expectContinue(request.expectContinue());
        request.timeout().ifPresent(copy::timeout);
        request.version().ifPresent(copy::version);
        for (Map.Entry<String, List<String>> header : request.headers().map().entrySet()) {
            for (String value : header.getValue()) {
                copy.header(header.getKey(), value);
            }
        }
        return copy;
    }

    private static void discard(HttpResponse<?> response) {
        Object body = response.body();
        if (body instanceof InputStream) {
            try {
                ((InputStream) body).close();
            } catch (IOException e) {
                // The answer is dropped for a retry; a failure to close its stream changes nothing.
            }
        }
    }

    private static final class Authorized {
        final HttpRequest request;
        final String token;

        Authorized(HttpRequest request, String token) {
            this.request = request;
            this.token = token;
        }
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return delegate.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return delegate.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return delegate.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return delegate.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return delegate.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return delegate.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return delegate.authenticator();
    }

    @Override
    public Version version() {
        return delegate.version();
    }

    @Override
    public Optional<Executor> executor() {
        return delegate.executor();
    }
}
