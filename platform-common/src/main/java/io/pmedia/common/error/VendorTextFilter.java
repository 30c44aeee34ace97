package io.pmedia.common.error;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Applies {@link VendorText} in every service: to each JSON body before Jackson reads it into a record or a tree,
 * and to each decoded path and query parameter before a resource method sees it.
 */
@Provider
public class VendorTextFilter implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException, WebApplicationException {
        MediaType type = context.getMediaType();
        if (type == null || !(type.isCompatible(MediaType.APPLICATION_JSON_TYPE)
                || type.getSubtype().endsWith("+json"))) {
            return context.proceed();
        }
        byte[] body = context.getInputStream().readAllBytes();
        VendorText.scan(body);
        context.setInputStream(new ByteArrayInputStream(body));
        return context.proceed();
    }

    /** Path and query parameters: no control character at all (they end up in keys, file names and headers). */
    @ServerRequestFilter
    public void checkParameters(UriInfo uri) {
        check("path parameter", uri.getPathParameters(true));
        check("query parameter", uri.getQueryParameters(true));
    }

    /**
     * Refuses a parameter name or value with a control character; {@code kind} is "path parameter" or "query
     * parameter" (also for a Vert.x route that decodes its own parameters).
     */
    public static void check(String kind, Map<String, List<String>> parameters) {
        for (Map.Entry<String, List<String>> parameter : parameters.entrySet()) {
            String name = parameter.getKey();
            if (VendorText.check(kind, name, false) != null) {
                throw ApiException.validation("a " + kind + " name must not contain control characters");
            }
            for (String value : parameter.getValue()) {
                ApiException refused = VendorText.check(kind + " '" + name + "'", value, false);
                if (refused != null) {
                    throw refused;
                }
            }
        }
    }
}
