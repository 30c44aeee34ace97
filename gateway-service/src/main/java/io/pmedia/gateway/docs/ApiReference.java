package io.pmedia.gateway.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The API reference at {@code /docs}: the page Redocly's CLI renders from the OpenAPI document at build time
 * (gateway-service/pom.xml), the events reference rendered from docs/asyncapi.yaml beside it, and both documents.
 * Public, like the OpenAPI document. The pages are self-contained (their scripts and styles are inlined): the
 * Content-Security-Policy lets them load nothing from anywhere else, nor be framed.
 */
@ApplicationScoped
public class ApiReference {

    static final String CSP = "default-src 'none'; script-src 'unsafe-inline' blob:; style-src 'unsafe-inline'; "
            + "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    private static final Map<String, String[]> FILES = Map.of(
            "/docs/", new String[]{"index.html", "text/html; charset=utf-8"},
            "/docs/events", new String[]{"events.html", "text/html; charset=utf-8"},
            "/docs/openapi.yaml", new String[]{"openapi.yaml", "application/yaml; charset=utf-8"},
            "/docs/asyncapi.yaml", new String[]{"asyncapi.yaml", "application/yaml; charset=utf-8"});

    private final Map<String, Buffer> loaded = new ConcurrentHashMap<>();

    void install(@Observes Router router) {
        slashRedirect(router, "/docs");
        FILES.forEach((path, file) -> router.get(path).handler(ctx -> serve(ctx, file[0], file[1])));
    }

    /** {@code path} without its slash answers 301 to {@code path/}. */
    static void slashRedirect(Router router, String path) {
        // (Vert.x matches path/ to a route of path too: only the bare path is sent on.)
        router.get(path).handler(ctx -> {
            if (ctx.request().path().endsWith("/")) {
                ctx.next();
            } else {
                ctx.response().setStatusCode(301).putHeader("Location", path + "/").end();
            }
        });
    }

    private void serve(RoutingContext ctx, String file, String contentType) {
        Buffer body = loaded.computeIfAbsent(file, ApiReference::read);
        if (body.length() == 0) {
            ctx.fail(new ApiException(ErrorCode.NOT_FOUND, "the API reference was not built into this gateway"));
            return;
        }
        ctx.response().putHeader("Content-Type", contentType).putHeader("Content-Security-Policy", CSP)
                .putHeader("X-Content-Type-Options", "nosniff").putHeader("Referrer-Policy", "no-referrer")
                .putHeader("Cache-Control", "public, max-age=300").end(body);
    }

    private static Buffer read(String file) {
        try (InputStream in = ApiReference.class.getClassLoader()
                .getResourceAsStream("META-INF/pmedia-docs/" + file)) {
            return in == null ? Buffer.buffer() : Buffer.buffer(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
