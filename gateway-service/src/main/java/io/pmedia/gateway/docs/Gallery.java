package io.pmedia.gateway.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The sample templates' gallery at {@code /docs/gallery/}: the contact sheet of every sample (docs/samples, made by
 * scripts/contact-sheets.sh from what the engine renders) with its name and description, as a page and as
 * {@code gallery.json} for the console's template gallery. Public, like the rest of {@code /docs}; the page's one
 * style block is allowed by its hash, and it loads nothing but its own images.
 */
@ApplicationScoped
public class Gallery {

    static final String ROOT = "META-INF/pmedia-docs/gallery/";
    private static final Pattern IMAGE = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}\\.png");
    private static final String STYLE = "body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:72rem;"
            + "padding:0 1rem;color:#1d3557}figure{margin:0 0 2.5rem}img{max-width:100%;height:auto;"
            + "border:1px solid #ccd}figcaption{margin-top:.5rem}.tags{color:#457b9d}";

    private final Map<String, Buffer> images = new LinkedHashMap<>();
    private final Buffer json;
    private final Buffer page;
    private final String csp;

    public Gallery(ObjectMapper mapper) {
        Buffer list = read("gallery.json");
        this.json = list;
        StringBuilder html = new StringBuilder("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<title>pmedia sample gallery</title><style>" + STYLE + "</style></head><body><main>"
                + "<h1>Sample gallery</h1><p>What the engine renders from each sample template that "
                + "<code>./pmedia up</code> registers: eight frames of each, evenly spaced. Every name is drawn in "
                + "the script the sample was given. <a href=\"/docs/\">API reference</a></p>");
        try {
            JsonNode samples = list == null ? mapper.createArrayNode() : mapper.readTree(list.getBytes());
            for (JsonNode sample : samples) {
                String image = sample.path("image").asText();
                if (!IMAGE.matcher(image).matches()) {
                    continue;
                }
                Buffer png = read(image);
                if (png == null) {
                    continue;
                }
                images.put(image, png);
                StringBuilder tags = new StringBuilder(sample.path("width").asInt() + "×"
                        + sample.path("height").asInt() + " · " + sample.path("duration-seconds").asText() + " s");
                if (sample.path("lottie").asBoolean()) {
                    tags.append(" · Lottie motion");
                }
                if (sample.path("speaks").asBoolean()) {
                    tags.append(" · speaks");
                }
                html.append("<figure><h2>").append(escape(sample.path("name").asText())).append("</h2><img src=\"")
                        .append(image).append("\" alt=\"Eight frames of the ").append(escape(sample.path("name")
                                .asText()))
                        .append(" sample\" loading=\"lazy\"><figcaption><code>")
                        .append(escape(sample.path("use-case-id").asText())).append("</code> · <span class=\"tags\">")
                        .append(escape(tags.toString())).append("</span><br>")
                        .append(escape(sample.path("description").asText())).append("</figcaption></figure>");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.page = Buffer.buffer(html.append("</main></body></html>").toString());
        this.csp = "default-src 'none'; img-src 'self'; style-src '" + sha256(STYLE) + "'; frame-ancestors 'none';"
                + " base-uri 'none'; form-action 'none'";
    }

    void install(@Observes Router router) {
        ApiReference.slashRedirect(router, "/docs/gallery");
        router.get("/docs/gallery/").handler(ctx -> send(ctx, page, "text/html; charset=utf-8"));
        router.get("/docs/gallery/gallery.json").handler(ctx -> send(ctx, json, "application/json"));
        router.get("/docs/gallery/:image").handler(ctx -> {
            Buffer png = images.get(ctx.pathParam("image"));
            if (png == null) {
                ctx.fail(new ApiException(ErrorCode.NOT_FOUND, "no such sample image"));
                return;
            }
            send(ctx, png, "image/png");
        });
    }

    private void send(RoutingContext ctx, Buffer body, String type) {
        if (body == null) {
            ctx.fail(new ApiException(ErrorCode.NOT_FOUND, "the gallery was not built into this gateway"));
            return;
        }
        ctx.response().putHeader("Content-Type", type).putHeader("Content-Security-Policy", csp)
                .putHeader("X-Content-Type-Options", "nosniff").putHeader("Referrer-Policy", "no-referrer")
                .putHeader("Cache-Control", "public, max-age=300").end(body);
    }

    private static Buffer read(String file) {
        try (InputStream in = Gallery.class.getClassLoader().getResourceAsStream(ROOT + file)) {
            return in == null ? null : Buffer.buffer(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Text for HTML: the five characters that could end it escaped. */
    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }

    private static String sha256(String text) {
        try {
            return "sha256-" + Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
