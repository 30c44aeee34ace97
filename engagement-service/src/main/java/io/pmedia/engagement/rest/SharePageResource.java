package io.pmedia.engagement.rest;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;

import io.pmedia.common.client.SharingSettings;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.common.error.ErrorMappers;
import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.engagement.config.EngagementConfig;
import io.pmedia.engagement.service.Beacons;
import io.pmedia.engagement.service.Bots;
import io.pmedia.engagement.service.EmailGifs;
import io.pmedia.engagement.service.Pages;
import io.pmedia.engagement.service.ViewTokens;
import io.pmedia.storage.ObjectStore;
import io.quarkus.qute.Template;
import io.smallrye.mutiny.Uni;

/**
 * The share pages (docs/sharing.md), public: {@code /v/{shareId}} plays the video with its title, call to action
 * and branding; {@code /embed} is the same player for an iframe of the vendor's allowed origins; the media paths are
 * stable URLs that answer with a short-lived presigned redirect (captions are served here, so that a {@code <track>}
 * stays same-origin). Any share id that does not play answers the same 404: a page for browsers, the error body for
 * everything else, briefly cacheable by a CDN. A page carries a view token of its own (docs/sharing.md, "What
 * counts"), so it is cacheable by the viewer's browser only: a reload within the minute is the same page view.
 */
@Path("/v")
@PermitAll
public class SharePageResource {

    /** How long a browser may keep a page (a CDN: a 404 and a media redirect). */
    static final int PAGE_MAX_AGE = 60;
    static final int NOT_FOUND_MAX_AGE = 30;
    static final int REDIRECT_MAX_AGE = 300;
    private static final Logger LOG = Logger.getLogger(SharePageResource.class);
    private static final Pattern COLOR = Pattern.compile("#[0-9a-fA-F]{6}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Pages pages;
    private final Beacons beacons;
    private final EmailGifs gifs;
    private final ViewTokens tokens;
    private final ObjectStore store;
    private final EngagementConfig config;
    private final Template page;
    private final Template notfound;

    public SharePageResource(Pages pages, Beacons beacons, EmailGifs gifs, ViewTokens tokens, ObjectStore store,
            EngagementConfig config, Template page, Template notfound) {
        this.pages = pages;
        this.beacons = beacons;
        this.gifs = gifs;
        this.tokens = tokens;
        this.store = store;
        this.config = config;
        this.page = page;
        this.notfound = notfound;
    }

    /** What the page template prints; every value is escaped by Qute where it is printed. */
    public record View(String shareId, String title, String brand, boolean embed, boolean preparing, String pageUrl,
            String embedUrl, String videoUrl, String posterUrl, String videoPath, String posterPath,
            String captionsPath, Integer width, Integer height, String logoUrl, String ctaLabel, String ctaUrl,
            String nonce, String rootStyle, String viewToken) {
    }

    @GET
    @Path("{shareId}")
    public Uni<Response> page(@PathParam("shareId") String shareId, @HeaderParam("User-Agent") String agent,
            @HeaderParam("Accept") String accept) {
        return render(shareId, false, agent, accept);
    }

    @GET
    @Path("{shareId}/embed")
    public Uni<Response> embed(@PathParam("shareId") String shareId, @HeaderParam("User-Agent") String agent,
            @HeaderParam("Accept") String accept) {
        return render(shareId, true, agent, accept);
    }

    @GET
    @Path("{shareId}/video.mp4")
    public Uni<Response> video(@PathParam("shareId") String shareId, @HeaderParam("Accept") String accept) {
        return pages.live(shareId).map(video -> video == null || video.videoKey == null
                ? notFound(accept)
                : redirect(video.videoKey));
    }

    @GET
    @Path("{shareId}/poster.jpg")
    public Uni<Response> poster(@PathParam("shareId") String shareId, @HeaderParam("Accept") String accept) {
        return pages.live(shareId).map(video -> video == null || video.posterKey == null
                ? notFound(accept)
                : redirect(video.posterKey));
    }

    @GET
    @Path("{shareId}/email.gif")
    public Uni<Response> emailGif(@PathParam("shareId") String shareId, @HeaderParam("Accept") String accept) {
        return pages.live(shareId).flatMap(video -> {
            if (video == null || video.videoKey == null) {
                return Uni.createFrom().item(notFound(accept));
            }
            // Made ahead when the link opened (realtime videos), else now: while it is being made, the poster
            // stands in, not cached, so an email client's image proxy sees neither a 503 nor a long wait.
            Uni<Response> standIn = Uni.createFrom().item(() -> {
                if (video.posterKey == null) {
                    throw EmailGifs.busy();
                }
                return redirect(video.posterKey, "no-store");
            });
            return gifs.of(video).map(this::redirect)
                    .ifNoItem().after(config.emailGifWait()).recoverWithUni(() -> standIn)
                    .onFailure(failure -> !EmailGifs.isBusy(failure)).invoke(failure -> LOG.warnf(
                            "the email GIF of %s cannot be made (%s): the poster stands in", shareId,
                            failure.getMessage()))
                    .onFailure().recoverWithUni(() -> standIn);
        });
    }

    @GET
    @Path("{shareId}/captions.vtt")
    public Uni<Response> captions(@PathParam("shareId") String shareId, @HeaderParam("Accept") String accept) {
        return pages.live(shareId).flatMap(video -> video == null || video.captionsKey == null
                ? Uni.createFrom().item(notFound(accept))
                : Blocking.offload(() -> read(video.captionsKey)).map(text -> text == null
                        ? notFound(accept)
                        : Response.ok(text, "text/vtt; charset=utf-8")
                                .header("Cache-Control", "public, max-age=" + PAGE_MAX_AGE).build()));
    }

    private Uni<Response> render(String shareId, boolean embed, String agent, String accept) {
        return pages.live(shareId).flatMap(video -> {
            if (video == null) {
                return Uni.createFrom().item(notFound(accept));
            }
            Uni<Void> counted = Bots.isBot(agent) ? beacons.botPageLoad(video, agent) : Uni.createFrom().voidItem();
            return counted.flatMap(ignored -> Uni.combine().all()
                    .unis(pages.vendor(video.clientId), tokens.issue(video.shareId)).asTuple()).map(both -> {
                        SharingSettings vendor = both.getItem1();
                        View view = view(video, vendor, embed, both.getItem2());
                        String csp = pages.contentSecurityPolicy(view.nonce(), view.logoUrl(),
                                embed ? vendor.embedOriginsOrEmpty() : List.of());
                        return Response
                                .ok(page.data("view", view).render(), MediaType.TEXT_HTML_TYPE.withCharset("utf-8"))
                                .header("Content-Security-Policy", csp)
                                .header("Cache-Control", "private, max-age=" + PAGE_MAX_AGE)
                                .header("X-Robots-Tag", "noindex, nofollow")
                                .header("Referrer-Policy", "no-referrer")
                                .header("Permissions-Policy",
                                        "camera=(), microphone=(), geolocation=(), interest-cohort=()")
                                .build();
                    });
        });
    }

    private View view(SharedVideoRow video, SharingSettings vendor, boolean embed, String viewToken) {
        String base = "/v/" + video.shareId;
        String logo = video.logoUrl != null ? video.logoUrl : vendor.logoUrl();
        String color = video.color != null ? video.color : vendor.color();
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        return new View(video.shareId, video.title == null || video.title.isBlank() ? "Your video" : video.title,
                "Logo", embed, video.videoKey == null, pages.absolute(base), pages.absolute(base + "/embed"),
                pages.absolute(base + "/video.mp4"), pages.absolute(base + "/poster.jpg"), base + "/video.mp4",
                base + "/poster.jpg", video.captionsKey == null ? null : base + "/captions.vtt", video.width,
                video.height, logo, video.ctaLabel, video.ctaUrl,
                Base64.getEncoder().encodeToString(nonce),
                ":root{--accent:" + (color != null && COLOR.matcher(color).matches() ? color : "#1d3557") + "}",
                viewToken);
    }

    /** A presigned URL that lives longer than the redirect may be cached. */
    private Response redirect(String key) {
        return redirect(key, "public, max-age=" + Math.min(REDIRECT_MAX_AGE, config.mediaUrlTtl().toSeconds() / 2));
    }

    private Response redirect(String key, String cacheControl) {
        return Response.status(Response.Status.FOUND).location(URI.create(store.publicUrl(key, config.mediaUrlTtl())))
                .header("Cache-Control", cacheControl).header("Referrer-Policy", "no-referrer").build();
    }

    /** The same answer for every share id that does not play: a page for browsers, the error body otherwise. */
    private Response notFound(String accept) {
        Response.ResponseBuilder answer;
        if (accept != null && accept.contains("text/html")) {
            answer = Response.status(404).type(MediaType.TEXT_HTML_TYPE.withCharset("utf-8"))
                    .entity(notfound.render())
                    .header("Content-Security-Policy", "default-src 'none'; style-src 'self'; frame-ancestors 'none'");
        } else {
            answer = Response.fromResponse(ErrorMappers.respond(ErrorCode.NOT_FOUND, Pages.notFound().getMessage(),
                    null));
        }
        return answer.header("Cache-Control", "public, max-age=" + NOT_FOUND_MAX_AGE)
                .header("X-Robots-Tag", "noindex, nofollow").build();
    }

    private String read(String key) {
        try {
            var object = store.open(key);
            if (object.isEmpty()) {
                return null;
            }
            try (InputStream in = object.get()) {
                return new String(in.readNBytes(1_000_000), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
