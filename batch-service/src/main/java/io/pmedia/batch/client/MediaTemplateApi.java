package io.pmedia.batch.client;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import com.fasterxml.jackson.databind.JsonNode;

import io.smallrye.mutiny.Uni;

/**
 * media-service's {@code GET /templates/{templateId}}, called with the vendor's own token: the template exists and
 * this vendor may use it, or the call fails with 404. Used only through {@link MediaTemplateClient}, which owns its
 * timeout, retry and circuit breaker.
 */
@RegisterRestClient(configKey = "media")
@Path("/templates")
public interface MediaTemplateApi {

    @GET
    @Path("{templateId}")
    Uni<JsonNode> usable(@HeaderParam("Authorization") String authorization,
            @PathParam("templateId") String templateId);
}
