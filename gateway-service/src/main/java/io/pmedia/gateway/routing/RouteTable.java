package io.pmedia.gateway.routing;

import java.util.List;
import java.util.Set;

import io.pmedia.gateway.Access;
import io.vertx.core.http.HttpMethod;

/**
 * Every path the gateway forwards, declared once: method, path, the service that owns it, the credentials it takes
 * and what its body must be. The interface document's section 4 (rows 3-11), the vendor extras beyond it, and the
 * operator's template calls; the schemas are in {@code META-INF/openapi.yaml}. {@link Forwarder} serves the table.
 * The public share pages ({@code /v/}, no credentials) are {@link ViewerRoutes}'.
 */
public final class RouteTable {

    /** The services behind the gateway. */
    public enum Service {
        MEDIA("the media service"), BATCH("the batch service"), VTON("the try-on service"), CAMPAIGN(
                "the campaign service"), NOTIFIER("the webhook service"), ENGAGEMENT("the share page service");

        private final String description;

        Service(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    /** What the gateway checks of a body before forwarding (the owner checks the fields). */
    public enum Body {
        NONE, JSON_OBJECT
    }

    /** What a call costs against the vendor's API budget (docs/security.md): every call, or a call that starts work. */
    public enum Cost {
        CALL, WORK
    }

    /**
     * One route. {@code path} in Vert.x form ({@code :name} for a parameter, a trailing {@code *} for the rest);
     * {@code uuids} are the path parameters that must be uuids (400 {@code VALIDATION_ERROR} before forwarding).
     */
    public record Route(HttpMethod method, String path, Service service, Access access, Body body, Cost cost,
            Set<String> uuids) {

        Route(HttpMethod method, String path, Service service, Access access, Body body) {
            this(method, path, service, access, body, Cost.CALL, Set.of());
        }

        Route(HttpMethod method, String path, Service service, Access access, Body body, Cost cost) {
            this(method, path, service, access, body, cost, Set.of());
        }

        Route(HttpMethod method, String path, Service service, Access access, Body body, Set<String> uuids) {
            this(method, path, service, access, body, Cost.CALL, uuids);
        }
    }

    private static final HttpMethod GET = HttpMethod.GET;
    private static final HttpMethod POST = HttpMethod.POST;

    public static final List<Route> ROUTES = List.of(
            new Route(POST, "/media/demo", Service.MEDIA, Access.BEARER, Body.JSON_OBJECT, Cost.WORK),
            new Route(POST, "/video/demo", Service.MEDIA, Access.KEY_AND_BEARER, Body.JSON_OBJECT, Cost.WORK),
            new Route(GET, "/status/:transactionId", Service.MEDIA, Access.KEY_OR_BEARER, Body.NONE),
            new Route(GET, "/templates", Service.MEDIA, Access.BEARER, Body.NONE),
            new Route(POST, "/templates", Service.MEDIA, Access.BEARER, Body.JSON_OBJECT),
            new Route(GET, "/templates/:templateId", Service.MEDIA, Access.BEARER, Body.NONE),
            new Route(POST, "/templates/:templateId/preview", Service.MEDIA, Access.BEARER, Body.JSON_OBJECT,
                    Cost.WORK),
            new Route(POST, "/media/task/create", Service.BATCH, Access.BEARER, Body.JSON_OBJECT, Cost.WORK),
            new Route(POST, "/media/task/uploads", Service.BATCH, Access.BEARER, Body.JSON_OBJECT),
            new Route(GET, "/media/task/status/:taskId", Service.BATCH, Access.BEARER, Body.NONE, Set.of("taskId")),
            new Route(POST, "/media/task/cancel/:taskId", Service.BATCH, Access.BEARER, Body.NONE, Set.of("taskId")),
            new Route(POST, "/vton/request", Service.VTON, Access.BEARER, Body.JSON_OBJECT, Cost.WORK),
            new Route(GET, "/vton/status/:requestId", Service.VTON, Access.BEARER, Body.NONE),
            new Route(POST, "/campaigns/:campaign_id/schedule", Service.CAMPAIGN, Access.BEARER, Body.JSON_OBJECT),
            new Route(GET, "/campaigns/:campaign_id/schedule", Service.CAMPAIGN, Access.BEARER, Body.NONE),
            new Route(GET, "/webhooks/deliveries", Service.NOTIFIER, Access.BEARER, Body.NONE),
            new Route(POST, "/webhooks/deliveries/:deliveryId/replay", Service.NOTIFIER, Access.BEARER, Body.NONE),
            new Route(POST, "/webhooks/test", Service.NOTIFIER, Access.BEARER, Body.NONE),
            new Route(POST, "/webhooks/deliveries/recover", Service.NOTIFIER, Access.BEARER, Body.JSON_OBJECT),
            new Route(GET, "/webhooks/endpoint", Service.NOTIFIER, Access.BEARER, Body.NONE),
            new Route(HttpMethod.PUT, "/webhooks/endpoint", Service.NOTIFIER, Access.BEARER, Body.JSON_OBJECT),
            new Route(POST, "/webhooks/endpoint/rotate-secret", Service.NOTIFIER, Access.BEARER, Body.NONE),
            new Route(POST, "/webhooks/endpoint/test", Service.NOTIFIER, Access.BEARER, Body.NONE),
            new Route(GET, "/usage", Service.NOTIFIER, Access.BEARER, Body.NONE),
            new Route(GET, "/admin/usage", Service.NOTIFIER, Access.OPERATOR, Body.NONE),
            new Route(GET, "/admin/webhooks/dead-letters", Service.NOTIFIER, Access.OPERATOR, Body.NONE),
            new Route(POST, "/admin/webhooks/dead-letters/:deliveryId/replay", Service.NOTIFIER, Access.OPERATOR,
                    Body.NONE),
            new Route(GET, "/media/requests", Service.MEDIA, Access.BEARER, Body.NONE),
            new Route(GET, "/media/requests/:transactionId/events", Service.MEDIA, Access.BEARER, Body.NONE),
            new Route(GET, "/media/tasks", Service.BATCH, Access.BEARER, Body.NONE),
            new Route(GET, "/vton/requests", Service.VTON, Access.BEARER, Body.NONE),
            new Route(GET, "/campaigns", Service.CAMPAIGN, Access.BEARER, Body.NONE),
            new Route(HttpMethod.DELETE, "/media/:transactionId/share", Service.MEDIA, Access.BEARER, Body.NONE),
            new Route(GET, "/analytics/videos/:transactionId", Service.ENGAGEMENT, Access.BEARER, Body.NONE),
            new Route(GET, "/analytics/templates/:templateId", Service.ENGAGEMENT, Access.BEARER, Body.NONE,
                    Set.of("templateId")),
            new Route(GET, "/analytics/campaigns/:campaignId", Service.ENGAGEMENT, Access.BEARER, Body.NONE),
            new Route(GET, "/analytics/campaigns/:campaignId/videos.csv", Service.ENGAGEMENT, Access.BEARER,
                    Body.NONE),
            new Route(GET, "/motions", Service.MEDIA, Access.BEARER, Body.NONE),
            new Route(POST, "/motions", Service.MEDIA, Access.BEARER, Body.JSON_OBJECT),
            new Route(GET, "/admin/motions", Service.MEDIA, Access.OPERATOR, Body.NONE),
            new Route(POST, "/admin/motions", Service.MEDIA, Access.OPERATOR, Body.JSON_OBJECT),
            new Route(GET, "/admin/fonts", Service.MEDIA, Access.OPERATOR, Body.NONE),
            new Route(POST, "/admin/fonts", Service.MEDIA, Access.OPERATOR, Body.JSON_OBJECT),
            new Route(GET, "/admin/templates", Service.MEDIA, Access.OPERATOR, Body.NONE),
            new Route(POST, "/admin/templates", Service.MEDIA, Access.OPERATOR, Body.JSON_OBJECT),
            new Route(GET, "/admin/templates/*", Service.MEDIA, Access.OPERATOR, Body.NONE));

    private RouteTable() {
    }
}
