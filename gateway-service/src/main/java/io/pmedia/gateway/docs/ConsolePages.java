package io.pmedia.gateway.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.common.net.Origins;
import io.pmedia.gateway.config.GatewayConfig;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The console at {@code /console} (docs/console.md): static pages from the top-level {@code console/} folder, packed
 * into this gateway's resources at build time (gateway-service/pom.xml), that talk to the public and operator APIs
 * only. {@code /console/} is the one page, never cached; its scripts and styles live under
 * {@code /console/<version>/}, where the version is a hash of every file, so they are cached for a year and a new
 * build is a new path. The Content-Security-Policy lets the pages run their own scripts only (nothing inline), talk
 * to this origin and load media from the store, and nobody frame them.
 */
@ApplicationScoped
public class ConsolePages {

    private static final String ROOT = "META-INF/pmedia-console/";
    /** Every file of the console, as the build lists them (console/files.txt). */
    private static final String LIST = "files.txt";
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8", "js",
            "text/javascript; charset=utf-8", "mjs", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8",
            "svg", "image/svg+xml");

    private final Map<String, Buffer> files = new TreeMap<>();
    private final String version;
    private final String csp;

    public ConsolePages(GatewayConfig config) {
        String list = new String(read(LIST).getBytes(), StandardCharsets.UTF_8);
        MessageDigest digest = sha256();
        list.lines().map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).sorted()
                .forEach(name -> {
                    Buffer body = read(name);
                    files.put(name, body);
                    digest.update(name.getBytes(StandardCharsets.UTF_8));
                    digest.update(body.getBytes());
                });
        this.version = HexFormat.of().formatHex(digest.digest()).substring(0, 12);
        String media = config.gateway().console().mediaBaseUrl().flatMap(Origins::of).map(o -> " " + o)
                .orElse("");
        this.csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:" + media
                + "; media-src 'self' blob:" + media + "; connect-src 'self'" + media
                + "; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    }

    void install(@Observes Router router) {
        ApiReference.slashRedirect(router, "/console");
        router.get("/console/").handler(this::page);
        router.get("/console/:version/*").handler(this::asset);
    }

    /** The hash the assets are served under now. */
    public String version() {
        return version;
    }

    private void page(RoutingContext ctx) {
        Buffer index = files.get("index.html");
        if (index == null) {
            ctx.fail(new ApiException(ErrorCode.NOT_FOUND, "the console was not built into this gateway"));
            return;
        }
        String html = index.toString(StandardCharsets.UTF_8).replace("@VERSION@", version);
        headers(ctx, "index.html").putHeader("Cache-Control", "no-cache");
        ctx.response().end(html);
    }

    private void asset(RoutingContext ctx) {
        String name = ctx.pathParam("*");
        Buffer body = name == null || name.equals("index.html") ? null : files.get(name);
        if (body == null || !version.equals(ctx.pathParam("version"))) {
            ctx.fail(new ApiException(ErrorCode.NOT_FOUND, "no console file '" + ctx.request().path() + "'"));
            return;
        }
        headers(ctx, name).putHeader("Cache-Control", "public, max-age=31536000, immutable");
        ctx.response().end(body);
    }

    private HttpServerResponse headers(RoutingContext ctx, String name) {
        String extension = name.substring(name.lastIndexOf('.') + 1);
        return ctx.response().putHeader("Content-Type", TYPES.getOrDefault(extension, "application/octet-stream"))
                .putHeader("Content-Security-Policy", csp)
                .putHeader("Referrer-Policy", "no-referrer").putHeader("X-Frame-Options", "DENY");
    }
    private static Buffer read(String file) {
        try (InputStream in = ConsolePages.class.getClassLoader().getResourceAsStream(ROOT + file)) {
            return in == null ? Buffer.buffer() : Buffer.buffer(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
