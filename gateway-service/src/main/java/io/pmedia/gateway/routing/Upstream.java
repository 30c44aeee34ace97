package io.pmedia.gateway.routing;

import java.net.URI;
import java.time.Duration;
import java.util.Set;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.gateway.config.GatewayConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.core.http.HttpClient;
import io.vertx.mutiny.core.http.HttpClientResponse;

/**
 * Forwards a call to the domain service that owns it, with the bearer token the service will verify, and hands the
 * service's answer back unchanged (its error bodies already have the 2.11 shape). A service that cannot be reached
 * or does not answer in time is reported as 503 {@code SERVICE_UNAVAILABLE}.
 */
@ApplicationScoped
public class Upstream {

    /** Owners of the public paths (interface section 4) and of the vendor extras. */
    public enum Service {
        MEDIA, BATCH, VTON, CAMPAIGN, NOTIFIER
    }

    private static final Logger LOG = Logger.getLogger(Upstream.class);
    private static final Set<String> PASSED_BACK = Set.of("content-type", "retry-after", "location", "cache-control",
            "allow");

    private final HttpClient client;
    private final GatewayConfig.Services services;
    private final Duration timeout;

    public Upstream(Vertx vertx, GatewayConfig config) {
        this.services = config.gateway().services();
        this.timeout = config.gateway().upstreamTimeout();
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout(2000)
                .setMaxPoolSize(200)
                .setKeepAlive(true)
                .setIdleTimeout(60));
    }

    @PreDestroy
    void close() {
        client.closeAndAwait();
    }

    /**
     * @param target path and query as the caller sent them (raw, still encoded)
     * @param callerAddress passed on as {@code X-Forwarded-For} for the service's logs
     */
    public Uni<Response> forward(Service service, String method, String target, byte[] body, String contentType,
            String bearerToken, String callerAddress, String requestId) {
        URI base = baseOf(service);
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.valueOf(method))
                .setHost(base.getHost())
                .setPort(base.getPort())
                .setSsl("https".equalsIgnoreCase(base.getScheme()))
                .setURI(target)
                .setFollowRedirects(false)
                .setIdleTimeout(timeout.toMillis())
                .putHeader("Authorization", "Bearer " + bearerToken)
                .putHeader("Accept", "application/json")
                .putHeader("X-Forwarded-For", callerAddress)
                .putHeader("X-Request-Id", requestId);
        if (contentType != null) {
            options.putHeader("Content-Type", contentType);
        }
        Buffer payload = body == null ? Buffer.buffer() : Buffer.buffer(body);
        return client.request(options)
                .flatMap(request -> request.send(payload))
                .flatMap(response -> response.body().map(answer -> toResponse(response, answer)))
                .ifNoItem().after(timeout).failWith(() -> new ApiException(ErrorCode.SERVICE_UNAVAILABLE,
                        name(service) + " did not answer in time, retry later", Duration.ofSeconds(5)))
                .onFailure(failure -> !(failure instanceof ApiException)).transform(failure -> {
                    LOG.warnf("%s unreachable: %s", name(service), failure.getMessage());
                    return new ApiException(ErrorCode.SERVICE_UNAVAILABLE,
                            name(service) + " is unavailable, retry later", Duration.ofSeconds(5));
                });
    }

    private static Response toResponse(HttpClientResponse response, Buffer body) {
        Response.ResponseBuilder builder = Response.status(response.statusCode());
        response.headers().forEach(entry -> {
            if (PASSED_BACK.contains(entry.getKey().toLowerCase(java.util.Locale.ROOT))) {
                builder.header(entry.getKey(), entry.getValue());
            }
        });
        return builder.entity(body.getBytes()).build();
    }

    private URI baseOf(Service service) {
        return switch (service) {
            case MEDIA -> services.media();
            case BATCH -> services.batch();
            case VTON -> services.vton();
            case CAMPAIGN -> services.campaign();
            case NOTIFIER -> services.notifier();
        };
    }

    private static String name(Service service) {
        return switch (service) {
            case MEDIA -> "the media service";
            case BATCH -> "the batch service";
            case VTON -> "the try-on service";
            case CAMPAIGN -> "the campaign service";
            case NOTIFIER -> "the webhook service";
        };
    }
}
