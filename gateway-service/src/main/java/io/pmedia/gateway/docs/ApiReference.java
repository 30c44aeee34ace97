package io.pmedia.gateway.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 * Content-Security-Policy lets them load nothing from anywhere else, nor be framed, and runs only the page's own
 * inline scripts, named by their SHA-256 (computed here from the page as built, so a rebuilt page needs no edit);
 * the logo Redocly's page links from its CDN is replaced by an empty image, so the page makes no third-party request.
 */
@ApplicationScoped
public class ApiReference {

    /** The policy with the page's script hashes in place of {@code %s}. */
    static final String CSP = "default-src 'none'; script-src %s blob:; style-src 'unsafe-inline'; "
            + "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
    private static final Pattern INLINE_SCRIPT = Pattern.compile("<script(?![^>]*\\bsrc=)[^>]*>(.*?)</script>",
            Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    private static final Pattern THIRD_PARTY_LOGO = Pattern.compile("https://cdn\\.redoc\\.ly/[^\"'`\\\\)\\s]*");

    private record Page(Buffer body, String csp) {
    }

    private static final Map<String, String[]> FILES = Map.of(
            "/docs/", new String[]{"index.html", "text/html; charset=utf-8"},
            "/docs/events", new String[]{"events.html", "text/html; charset=utf-8"},
            "/docs/openapi.yaml", new String[]{"openapi.yaml", "application/yaml; charset=utf-8"},
            "/docs/asyncapi.yaml", new String[]{"asyncapi.yaml", "application/yaml; charset=utf-8"});

    private final Map<String, Page> loaded = new ConcurrentHashMap<>();

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
        Page page = loaded.computeIfAbsent(file, ApiReference::read);
        Buffer body = page.body();
        if (body.length() == 0) {
            ctx.fail(new ApiException(ErrorCode.NOT_FOUND, "the API reference was not built into this gateway"));
            return;
        }
        ctx.response().putHeader("Content-Type", contentType).putHeader("Content-Security-Policy", page.csp())
                .putHeader("Referrer-Policy", "no-referrer")
                .putHeader("Cache-Control", "public, max-age=300").end(body);
    }

    private static Page read(String file) {
        try (InputStream in = ApiReference.class.getClassLoader()
                .getResourceAsStream("META-INF/pmedia-docs/" + file)) {
            if (in == null) {
                return new Page(Buffer.buffer(), csp(""));
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (file.endsWith(".html")) {
                text = THIRD_PARTY_LOGO.matcher(text).replaceAll("data:,");
            }
            return new Page(Buffer.buffer(text), csp(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The policy for a page: its inline scripts by hash ({@code 'none'} would refuse {@code blob:} too). */
    static String csp(String page) {
        return CSP.formatted(String.join(" ", scriptHashes(page)));
    }

    /** {@code 'sha256-...'} of every inline script of the page, as CSP Level 3 hashes them (the UTF-8 text). */
    public static List<String> scriptHashes(String page) {
        List<String> hashes = new ArrayList<>();
        Matcher script = INLINE_SCRIPT.matcher(page);
        while (script.find()) {
            try {
                byte[] digest = MessageDigest.getInstance("SHA-256")
                        .digest(script.group(1).getBytes(StandardCharsets.UTF_8));
                hashes.add("'sha256-" + Base64.getEncoder().encodeToString(digest) + "'");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
        return hashes;
    }
}
