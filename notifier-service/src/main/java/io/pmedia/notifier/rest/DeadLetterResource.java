package io.pmedia.notifier.rest;

import java.time.Instant;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.pmedia.common.paging.Dates;
import io.pmedia.common.paging.ListFilters;
import io.pmedia.common.paging.Page;
import io.pmedia.common.paging.PageRequest;
import io.pmedia.common.security.Roles;
import io.pmedia.notifier.DeliveryKind;
import io.pmedia.notifier.DeliveryStatus;
import io.pmedia.notifier.repository.DeliveryStore;
import io.pmedia.notifier.rest.DeliveryDtos.DeadLetterView;
import io.pmedia.notifier.service.WebhookDeliveries;
import io.smallrye.mutiny.Uni;

/**
 * The operator's dead letters (docs/webhooks.md): every vendor's deliveries whose retries were exhausted (each also
 * went to {@code pmedia.webhook.dead-letter}), newest first, and a replay of one once its endpoint is fixed. Reached
 * through the gateway's operator routes (the admin token).
 */
@Path("/admin/webhooks/dead-letters")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.OPERATOR)
@Tag(name = "Webhooks")
public class DeadLetterResource {

    private final WebhookDeliveries deliveries;

    public DeadLetterResource(WebhookDeliveries deliveries) {
        this.deliveries = deliveries;
    }

    @GET
    @Operation(summary = "Every vendor's exhausted webhook deliveries, newest first, filtered and paginated")
    public Uni<Page<DeadLetterView>> list(@QueryParam("client-id") String clientId, @QueryParam("type") String type,
            @QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        PageRequest page = PageRequest.of(limit, cursor);
        UUID only = ListFilters.uuid("client-id", clientId);
        Instant since = Dates.time("from", from);
        Instant until = Dates.time("to", to);
        Dates.range(since, until);
        DeliveryStore.Filter filter = new DeliveryStore.Filter(DeliveryStatus.EXHAUSTED,
                ListFilters.oneOf("type", type, DeliveryKind.class, DeliveryKind::wire), null, since);
        return deliveries.list(only, filter, until, page).map(found -> found.map(DeadLetterView::of));
    }

    @POST
    @Path("{webhookId}/replay")
    @Operation(summary = "Send a dead letter again now, as its vendor's replay: same webhook-id, one new attempt")
    public Uni<DeadLetterView> replay(@PathParam("webhookId") String webhookId) {
        return deliveries.replayAsOperator(WebhookResource.webhookId(webhookId)).map(DeadLetterView::of);
    }
}
