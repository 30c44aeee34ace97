package io.pmedia.notifier.rest;

import static io.pmedia.common.error.Messages.abbreviate;

import java.time.Instant;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.paging.Dates;
import io.pmedia.common.paging.ListFilters;
import io.pmedia.common.paging.Page;
import io.pmedia.common.paging.PageRequest;
import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.notifier.DeliveryKind;
import io.pmedia.notifier.DeliveryStatus;
import io.pmedia.notifier.repository.DeliveryStore;
import io.pmedia.notifier.rest.DeliveryDtos.DeliveryView;
import io.pmedia.notifier.rest.DeliveryDtos.EndpointRequest;
import io.pmedia.notifier.rest.DeliveryDtos.EndpointView;
import io.pmedia.notifier.rest.DeliveryDtos.RecoverRequest;
import io.pmedia.notifier.rest.DeliveryDtos.Recovering;
import io.pmedia.notifier.rest.DeliveryDtos.RotatedSecret;
import io.pmedia.notifier.rest.DeliveryDtos.TestResult;
import io.pmedia.notifier.service.WebhookDeliveries;
import io.pmedia.notifier.service.WebhookEndpoints;
import io.smallrye.mutiny.Uni;

/**
 * A vendor's webhooks (beyond the interface document; reached through the gateway, which forwards the caller's bearer
 * token): its endpoint (URL, event types, secret rotation, a test event) and its delivery log (list, replay, recover).
 * Every call is scoped to the token's client: another client's delivery is 404.
 */
@Path("/webhooks")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.CLIENT)
@Tag(name = "Webhooks")
public class WebhookResource {

    /** The longest id in a message. */
    private static final int SHOWN = 67;

    private final WebhookDeliveries deliveries;
    private final WebhookEndpoints endpoints;
    private final Caller caller;

    public WebhookResource(WebhookDeliveries deliveries, WebhookEndpoints endpoints, Caller caller) {
        this.deliveries = deliveries;
        this.endpoints = endpoints;
        this.caller = caller;
    }

    @GET
    @Path("deliveries")
    @Operation(summary = "Webhook deliveries with their attempts, newest first, filtered and paginated")
    public Uni<Page<DeliveryView>> list(@QueryParam("status") String status, @QueryParam("type") String type,
            @QueryParam("service-request-id") String serviceRequestId, @QueryParam("subject") String subject,
            @QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        PageRequest page = PageRequest.of(limit, cursor);
        Instant since = Dates.time("from", from);
        Instant until = Dates.time("to", to);
        Dates.range(since, until);
        String about = ListFilters.text("service-request-id", serviceRequestId);
        String other = ListFilters.text("subject", subject);
        if (about != null && other != null && !about.equals(other)) {
            throw ApiException.validation("query parameters 'service-request-id' and 'subject' name different"
                    + " resources; give one");
        }
        DeliveryStore.Filter filter = new DeliveryStore.Filter(
                ListFilters.oneOf("status", status, DeliveryStatus.class, DeliveryStatus::name),
                ListFilters.oneOf("type", type, DeliveryKind.class, DeliveryKind::wire),
                about != null ? about : other, since);
        return deliveries.list(caller.clientId(), filter, until, page).map(found -> found.map(DeliveryView::of));
    }

    @POST
    @Path("deliveries/{webhookId}/replay")
    @Operation(summary = "Send a finished delivery again now: same webhook-id, one new attempt")
    public Uni<DeliveryView> replay(@PathParam("webhookId") String webhookId) {
        return deliveries.replay(caller.clientId(), webhookId(webhookId)).map(DeliveryView::of);
    }

    @POST
    @Path("deliveries/recover")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Send every failed or exhausted delivery since a time again, with the same webhook-ids")
    public Uni<Recovering> recover(RecoverRequest body) {
        if (body == null) {
            throw ApiException.validation("field 'since' is required");
        }
        Instant since = Dates.fieldTime("since", body.since());
        if (since == null) {
            throw ApiException.validation("field 'since' is required: an ISO 8601 date-time with an offset");
        }
        Instant until = body.until() == null ? Instant.now() : Dates.fieldTime("until", body.until());
        if (!since.isBefore(until)) {
            throw ApiException.validation("field 'since' must be before 'until' (default: now)");
        }
        return deliveries.recover(caller.clientId(), since, until)
                .map(count -> new Recovering(count, since, until));
    }

    @GET
    @Path("endpoint")
    @Operation(summary = "The webhook endpoint: URL, event types, secret rotation, whether it is disabled")
    public Uni<EndpointView> endpoint() {
        return endpoints.get(caller.clientId()).map(EndpointView::of);
    }

    @PUT
    @Path("endpoint")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set the webhook endpoint's URL and event types")
    public Uni<EndpointView> replaceEndpoint(EndpointRequest body) {
        if (body == null) {
            throw ApiException.validation("request body with 'url' and 'event-types' is required");
        }
        String url = body.url() == null || body.url().isBlank() ? null : body.url();
        return endpoints.replace(caller.clientId(), url, body.eventTypes()).map(EndpointView::of);
    }

    @POST
    @Path("endpoint/rotate-secret")
    @Operation(summary = "A new signing secret; the previous one keeps signing beside it for 24 hours")
    public Uni<RotatedSecret> rotateSecret() {
        return endpoints.rotateSecret(caller.clientId())
                .map(rotated -> new RotatedSecret(rotated.webhookSecret(), rotated.previousValidUntil()));
    }

    @POST
    @Path("endpoint/test")
    @Operation(summary = "Send a signed test event to the endpoint and show what it answered")
    public Uni<TestResult> testEndpoint() {
        return test();
    }

    @POST
    @Path("test")
    @Operation(summary = "Send a signed test event to the registered webhook-url and show what it answered")
    public Uni<TestResult> test() {
        return deliveries.test(caller.clientId()).map(outcome -> TestResult.of(outcome.webhookId(),
                outcome.attempt()));
    }

    static String webhookId(String value) {
        if (value == null || !WebhookDeliveries.WEBHOOK_ID.matcher(value).matches()) {
            throw ApiException
                    .notFound("no webhook delivery '" + (value == null ? "" : abbreviate(value, SHOWN)) + "'");
        }
        return value;
    }
}
