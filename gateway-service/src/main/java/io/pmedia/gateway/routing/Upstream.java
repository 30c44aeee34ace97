package io.pmedia.gateway.routing;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.gateway.config.GatewayConfig;
import io.pmedia.gateway.routing.RouteTable.Service;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.RoutingContext;

/**
 * Forwards a call to the domain service that owns it, with the bearer token the service will verify, and hands the
 * service's answer back unchanged (its error bodies already have the 2.11 shape). A service that cannot be reached
 * or does not answer in time is reported as 503 {@code SERVICE_UNAVAILABLE}.
 */
@ApplicationScoped
public class Upstream {

    /** A service's answer: status, the headers passed back to the caller, body. */
    public record Answer(int status, List<Map.Entry<String, String>> headers, Buffer body) {
    }

    /**
     * Hands a forwarded call's outcome to its caller: the service's answer as it came (status, the headers passed
     * back, body), or the failure (503 when the service is away) to the error handler, which writes the error body.
     */
    static void relay(Future<Answer> outcome, RoutingContext ctx) {
        outcome.onComplete(result -> {
            if (result.failed()) {
                ctx.fail(result.cause());
                return;
            }
            Answer answer = result.result();
            HttpServerResponse response = ctx.response().setStatusCode(answer.status());
            answer.headers().forEach(header -> response.putHeader(header.getKey(), header.getValue()));
            response.end(answer.body());
        });
    }

    /** Path and query as the caller sent them (raw, still encoded); never an absolute-form request target. */
    static String target(HttpServerRequest request) {
        return request.query() == null ? request.path() : request.path() + "?" + request.query();
    }

    private static final Logger LOG = Logger.getLogger(Upstream.class);
    private static final Set<String> PASSED_BACK = Set.of("content-type", "retry-after", "location", "cache-control",
            "allow");

    /** A share page's own headers: what it is, how long it may be cached, and what the browser may do with it. */
    private static final Set<String> VIEWER_PASSED_BACK = Set.of("content-type", "retry-after", "location",
            "cache-control", "allow", "content-security-policy", "x-robots-tag", "referrer-policy",
            "x-content-type-options", "permissions-policy", "cross-origin-resource-policy", "etag", "vary",
            "last-modified", "expires", "cdn-cache-control");

    private final HttpClient client;
    private final GatewayConfig.Services services;
    private final Duration timeout;

    public Upstream(Vertx vertx, GatewayConfig config) {
        this.services = config.gateway().services();
        this.timeout = config.gateway().upstreamTimeout();
        // Vert.x core's client with plain futures: the gateway's hot path, without Mutiny's per-operator context
        // capture.
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout(2000)
                .setMaxPoolSize(200)
                .setKeepAlive(true)
                .setIdleTimeout(60));
    }

    @PreDestroy
    void close() {
        client.close();
    }

    /** What the gateway's routes answer: JSON everywhere, and CSV where an export is the point. */
    static final String ACCEPTED = "application/json, text/csv;q=0.5";

    /**
     * @param target path and query as the caller sent them (raw, still encoded)
     * @param callerAddress passed on as {@code X-Forwarded-For} for the service's logs
     */
    public Future<Answer> forward(Service service, HttpMethod method, String target, Buffer body, String bearerToken,
            String callerAddress, String requestId) {
        URI base = baseOf(service);
        RequestOptions options = new RequestOptions()
                .setMethod(method)
                .setHost(base.getHost())
                .setPort(base.getPort())
                .setSsl("https".equalsIgnoreCase(base.getScheme()))
                .setURI(target)
                .setFollowRedirects(false)
                .setTimeout(timeout.toMillis())
                .putHeader("Authorization", "Bearer " + bearerToken)
                // JSON, and the one CSV export (GET /analytics/campaigns/{id}/videos.csv), whatever the caller asked
                .putHeader("Accept", ACCEPTED)
                .putHeader("X-Forwarded-For", callerAddress)
                .putHeader("X-Request-Id", requestId);
        if (body != null) {
            options.putHeader("Content-Type", "application/json");
        }
        return client.request(options)
                .compose(request -> body == null ? request.send() : request.send(body))
                .compose(response -> response.body().map(answer -> answer(response, answer)))
                .recover(failure -> {
                    LOG.warnf("%s unreachable: %s", service.description(), failure.getMessage());
                    String message = failure instanceof TimeoutException
                            ? service.description() + " did not answer in time, retry later"
                            : service.description() + " is unavailable, retry later";
                    return Future.failedFuture(new ApiException(ErrorCode.SERVICE_UNAVAILABLE, message,
                            Duration.ofSeconds(5)));
                });
    }

    /**
     * Forwards a viewer's call to a share page ({@link ViewerRoutes}): no credentials, the viewer's own headers that
     * the page needs ({@code headers}), and the page's answer with its own security and caching headers.
     */
    public Future<Answer> forwardViewer(HttpMethod method, String target, Map<String, String> headers, Buffer body,
            String callerAddress, String requestId) {
        URI base = baseOf(Service.ENGAGEMENT);
        RequestOptions options = new RequestOptions()
                .setMethod(method)
                .setHost(base.getHost())
                .setPort(base.getPort())
                .setSsl("https".equalsIgnoreCase(base.getScheme()))
                .setURI(target)
                .setFollowRedirects(false)
                .setTimeout(timeout.toMillis())
                .putHeader("X-Forwarded-For", callerAddress)
                .putHeader("X-Request-Id", requestId);
        headers.forEach(options::putHeader);
        return client.request(options)
                .compose(request -> body == null ? request.send() : request.send(body))
                .compose(response -> response.body().map(answer -> answer(response, answer, VIEWER_PASSED_BACK)))
                .recover(failure -> {
                    LOG.warnf("%s unreachable: %s", Service.ENGAGEMENT.description(), failure.getMessage());
                    return Future.failedFuture(new ApiException(ErrorCode.SERVICE_UNAVAILABLE,
                            "this page is unavailable right now, retry later", Duration.ofSeconds(5)));
                });
    }

    private static Answer answer(HttpClientResponse response, Buffer body) {
        return answer(response, body, PASSED_BACK);
    }

    private static Answer answer(HttpClientResponse response, Buffer body, Set<String> passedBack) {
        List<Map.Entry<String, String>> headers = new ArrayList<>(4);
        response.headers().forEach(entry -> {
            if (passedBack.contains(entry.getKey().toLowerCase(Locale.ROOT))) {
                headers.add(entry);
            }
        });
        return new Answer(response.statusCode(), headers, body);
    }

    private URI baseOf(Service service) {
        return switch (service) {
            case MEDIA -> services.media();
            case BATCH -> services.batch();
            case VTON -> services.vton();
            case CAMPAIGN -> services.campaign();
            case NOTIFIER -> services.notifier();
            case ENGAGEMENT -> services.engagement();
        };
    }
}
