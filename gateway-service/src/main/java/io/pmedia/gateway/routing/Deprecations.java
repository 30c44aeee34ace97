package io.pmedia.gateway.routing;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.gateway.config.GatewayConfig;
import io.vertx.ext.web.Router;

/**
 * The earlier interface generation keeps working and says so on every answer, errors included: {@code Deprecation}
 * (RFC 9745, a structured-field date), {@code Sunset} (RFC 8594, an HTTP date) and
 * {@code Link: <successor>; rel="successor-version"} (RFC 5829). After the sunset they answer 410 {@code GONE}
 * naming the successor. docs/versioning.md.
 */
@ApplicationScoped
public class Deprecations {

    /** Deprecated path -> the current path that replaces it. */
    public static final Map<String, String> SUCCESSORS = Map.of(
            "/getToken", "/auth/token",
            "/video/demo", "/media/demo");

    private final String deprecation;
    private final String sunset;
    private final Instant sunsetAt;

    public Deprecations(GatewayConfig config) {
        GatewayConfig.Deprecation dates = config.gateway().deprecation();
        this.deprecation = "@" + dates.since().getEpochSecond();
        this.sunsetAt = dates.sunset();
        this.sunset = DateTimeFormatter.RFC_1123_DATE_TIME.format(dates.sunset().atOffset(ZoneOffset.UTC));
    }

    void install(@Observes Router router) {
        // First among the routes after the request-limit checks, so every later answer carries the headers.
        SUCCESSORS.forEach((path, successor) -> router.route(path).order(Integer.MIN_VALUE + 1).handler(ctx -> {
            ctx.response()
                    .putHeader("Deprecation", deprecation)
                    .putHeader("Sunset", sunset)
                    .putHeader("Link", "<" + successor + ">; rel=\"successor-version\"");
            if (Instant.now().isAfter(sunsetAt)) {
                ctx.fail(new ApiException(ErrorCode.GONE, path + " was retired on " + sunset + ": use " + successor));
                return;
            }
            ctx.next();
        }));
    }
}
