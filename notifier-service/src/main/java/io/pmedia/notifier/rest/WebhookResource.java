package io.pmedia.notifier.rest;

import static io.pmedia.common.error.Messages.abbreviate;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.stream.Collectors;

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

import io.pmedia.common.error.ApiException;
import io.pmedia.common.security.Caller;
import io.pmedia.common.security.Roles;
import io.pmedia.notifier.DeliveryStatus;
import io.pmedia.notifier.rest.DeliveryDtos.DeliveryPage;
import io.pmedia.notifier.rest.DeliveryDtos.DeliveryView;
import io.pmedia.notifier.rest.DeliveryDtos.TestResult;
import io.pmedia.notifier.service.WebhookDeliveries;
import io.smallrye.mutiny.Uni;

/**
 * A vendor's view of its webhook deliveries (beyond the interface document; reached through the gateway, which
 * forwards the caller's bearer token). Every call is scoped to the token's client: another client's delivery is 404.
 */
@Path("/webhooks")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.CLIENT)
@Tag(name = "Webhooks")
public class WebhookResource {

    /** The longest id in a message. */
    private static final int SHOWN = 67;

    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;

    private final WebhookDeliveries deliveries;
    private final Caller caller;

    public WebhookResource(WebhookDeliveries deliveries, Caller caller) {
        this.deliveries = deliveries;
        this.caller = caller;
    }

    @GET
    @Path("deliveries")
    @Operation(summary = "Recent webhook deliveries with their attempts, newest first")
    public Uni<DeliveryPage> list(@QueryParam("status") String status, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        DeliveryStatus wanted = status(status);
        int size = limit(limit);
        Cursor after = Cursor.parse(cursor);
        return deliveries.list(caller.clientId(), wanted, after == null ? null : after.createdAt(),
                after == null ? null : after.webhookId(), size)
                .map(page -> new DeliveryPage(page.deliveries().stream().map(DeliveryView::of).toList(),
                        page.more() ? new Cursor(page.lastCreatedAt(), page.lastWebhookId()).encode() : null));
    }

    @POST
    @Path("deliveries/{webhookId}/replay")
    @Operation(summary = "Send a finished delivery again now: same webhook-id, one new attempt")
    public Uni<DeliveryView> replay(@PathParam("webhookId") String webhookId) {
        return deliveries.replay(caller.clientId(), webhookId(webhookId)).map(DeliveryView::of);
    }

    @POST
    @Path("test")
    @Operation(summary = "Send a signed test event to the registered webhook-url and show what it answered")
    public Uni<TestResult> test() {
        return deliveries.test(caller.clientId()).map(outcome -> TestResult.of(outcome.webhookId(),
                outcome.attempt()));
    }

    static DeliveryStatus status(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return DeliveryStatus.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiException.validation("query parameter 'status' must be one of "
                    + Arrays.stream(DeliveryStatus.values()).map(Enum::name).collect(Collectors.joining(", ")));
        }
    }

    static int limit(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_LIMIT;
        }
        try {
            int limit = Integer.parseInt(value.trim());
            if (limit >= 1 && limit <= MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.validation("query parameter 'limit' must be an integer from 1 to " + MAX_LIMIT);
    }

    static String webhookId(String value) {
        if (value == null || !value.matches("msg_[0-9a-f]{32}")) {
            throw ApiException
                    .notFound("no webhook delivery '" + (value == null ? "" : abbreviate(value, SHOWN)) + "'");
        }
        return value;
    }

    /** The opaque keyset position of a page: the last delivery's creation time (microseconds) and webhook-id. */
    record Cursor(Instant createdAt, String webhookId) {

        String encode() {
            long micros = createdAt.getEpochSecond() * 1_000_000L + createdAt.getNano() / 1_000;
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString((micros + ":" + webhookId).getBytes(StandardCharsets.UTF_8));
        }

        static Cursor parse(String value) {
            if (value == null || value.isBlank()) {
                return null;
            }
            try {
                String decoded = new String(Base64.getUrlDecoder().decode(value.trim()), StandardCharsets.UTF_8);
                int colon = decoded.indexOf(':');
                long micros = Long.parseLong(decoded.substring(0, colon));
                String id = decoded.substring(colon + 1);
                if (!id.matches("msg_[0-9a-f]{32}")) {
                    throw new IllegalArgumentException(id);
                }
                return new Cursor(Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                        Math.floorMod(micros, 1_000_000L) * 1_000L), id);
            } catch (RuntimeException e) {
                throw ApiException.validation("query parameter 'cursor' is not a cursor this API returned");
            }
        }
    }
}
