package io.pmedia.engagement.rest;

import java.io.IOException;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.VendorText;
import io.pmedia.engagement.service.Beacons;
import io.smallrye.mutiny.Uni;

/**
 * {@code POST /v/{shareId}/events} (docs/sharing.md): what the share page's script reports, as
 * {@code navigator.sendBeacon} sends it (a JSON text, usually {@code text/plain}). 202 at once when it is on the
 * broker (or when the viewer asked not to be counted); at most {@value #MAX_BYTES} bytes.
 */
@Path("/v")
@PermitAll
public class BeaconResource {

    static final int MAX_BYTES = 4096;

    private final Beacons beacons;
    private final ObjectMapper mapper;

    public BeaconResource(Beacons beacons, ObjectMapper mapper) {
        this.beacons = beacons;
        this.mapper = mapper;
    }

    @POST
    @Path("{shareId}/events")
    @Consumes({MediaType.TEXT_PLAIN, MediaType.APPLICATION_JSON, MediaType.WILDCARD})
    public Uni<Response> event(@PathParam("shareId") String shareId, byte[] body,
            @HeaderParam("X-Forwarded-For") String forwardedFor, @HeaderParam("User-Agent") String agent,
            @HeaderParam("DNT") String dnt, @HeaderParam("Sec-GPC") String gpc) throws IOException {
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("request body is required: the event as JSON");
        }
        if (body.length > MAX_BYTES) {
            throw new ApiException(io.pmedia.common.error.ErrorCode.PAYLOAD_TOO_LARGE,
                    "an event is at most " + MAX_BYTES + " bytes");
        }
        if (VendorText.scan(body) != VendorText.Shape.OBJECT) {
            throw ApiException.badRequest("request body must be a JSON object");
        }
        // A wrong type is answered by the error layer like any body's ("field 'percent' has the wrong type").
        Beacons.Beacon beacon = mapper.readValue(body, Beacons.Beacon.class);
        String address = forwardedFor == null || forwardedFor.isBlank()
                ? "unknown"
                : forwardedFor.split(",")[0].strip();
        return beacons.accept(shareId, beacon, new Beacons.Sender(address, agent, dnt, gpc))
                .map(recorded -> Response.accepted().header("Cache-Control", "no-store").build());
    }
}
