package io.pmedia.engagement.rest;

import java.net.URI;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;

import io.pmedia.common.client.SharingSettings;
import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.concurrent.Contexts;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.common.error.ErrorMappers;
import io.pmedia.common.error.Outages;
import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.engagement.config.EngagementConfig;
import io.pmedia.engagement.service.Beacons;
import io.pmedia.engagement.service.Bots;
import io.pmedia.engagement.service.EmailGifs;
import io.pmedia.engagement.service.Pages;
import io.pmedia.engagement.service.RenderClaims;
import io.pmedia.engagement.service.StreamOpenings;
import io.pmedia.engagement.service.StreamPosters;
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
    /** How often a bounded wait for a video rendered on view looks at its row. */
    static final java.time.Duration RENDER_POLL = java.time.Duration.ofMillis(250);
    /** Of an email image's wait ({@code email-gif-wait}), what the poster's cut or the GIF has after the render's. */
    static final java.time.Duration IMAGE_RESERVE = java.time.Duration.ofSeconds(2);
    /** The picture a video without its video yet shows in an email (and as the page's poster meanwhile). */
    static final String PREPARING_IMAGE = "/v/static/preparing.jpg";
    private static final Logger LOG = Logger.getLogger(SharePageResource.class);
    /** The playlist of a stream before its render has written one (RFC 8216 allows an EVENT playlist without segments). */
    static final String EMPTY_STREAM = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n"
            + "#EXT-X-PLAYLIST-TYPE:EVENT\n";
    static final String STREAM_TYPE = StreamOpenings.PLAYLIST_TYPE;
    private static final Pattern COLOR = Pattern.compile("#[0-9a-fA-F]{6}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Pages pages;
    private final RenderClaims claims;
    private final Beacons beacons;
    private final EmailGifs gifs;
    private final StreamPosters posters;
    private final ViewTokens tokens;
    private final ObjectStore store;
    private final EngagementConfig config;
    private final Template page;
    private final Template notfound;

    public SharePageResource(Pages pages, RenderClaims claims, Beacons beacons, EmailGifs gifs, StreamPosters posters,
            ViewTokens tokens, ObjectStore store, EngagementConfig config, Template page, Template notfound) {
        this.pages = pages;
        this.claims = claims;
        this.beacons = beacons;
        this.gifs = gifs;
        this.posters = posters;
        this.tokens = tokens;
        this.store = store;
        this.config = config;
        this.page = page;
        this.notfound = notfound;
    }

    /** What the page template prints; every value is escaped by Qute where it is printed. */
    public record View(String shareId, String title, String brand, boolean embed, boolean preparing, boolean failed,
            String pageUrl,
            String embedUrl, String videoUrl, String posterUrl, String videoPath, String posterPath,
            String captionsPath, Integer width, Integer height, String logoUrl, String ctaLabel, String ctaUrl,
            String nonce, String rootStyle, String viewToken, String streamPath, String openingPlaylist) {
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
        return openedNow(shareId).map(video -> {
            if (video != null && video.awaitsRender()) {
                return state(video);
            }
            return video == null || video.videoKey == null ? notFound(accept) : redirect(video.videoKey);
        });
    }

    @GET
    @Path("{shareId}/poster.jpg")
    public Uni<Response> poster(@PathParam("shareId") String shareId, @HeaderParam("Accept") String accept) {
        long until = deadline();
        return openedNow(shareId).flatMap(video -> rendered(video, until)).flatMap(video -> {
            if (video != null && video.awaitsRender()) {
                return standIn(video, until);
            }
            return Uni.createFrom().item(video == null || video.posterKey == null
                    ? notFound(accept)
                    : redirect(video.posterKey));
        });
    }

    /**
     * Where a video rendered on view stands, for its page's script: {@code {"state": "preparing"}}, {@code "failed"}
     * (the page offers a retry) or {@code "ready"}; never cached. Asking is an open like any other.
     */
    @GET
    @Path("{shareId}/state")
    public Uni<Response> state(@PathParam("shareId") String shareId, @HeaderParam("Accept") String accept) {
        // From the database: a page polling after a retry must not see the failure the cache still holds.
        return pages.liveNow(shareId).call(video -> claims.claim(video, false))
                .map(video -> video == null ? notFound(accept) : state(video));
    }

    /**
     * The stream of a video rendered on view, while its render runs (docs/sharing.md, "Render on first view"): the HLS
     * playlist the render writes, as stored (its segments are named by presigned URLs of the store), or, before the
     * render has written one, an empty {@code EVENT} playlist, which a player reloads until segments appear (a 404
     * would be fatal to hls.js). Never cached; asking is an open like any other. A link without a stream (rendered as
     * asked) answers the unknown link's 404; a store that cannot answer, 503 with {@code Retry-After}, which a player
     * retries.
     */
    @GET
    @Path("{shareId}/stream.m3u8")
    public Uni<Response> stream(@PathParam("shareId") String shareId, @HeaderParam("Accept") String accept) {
        return opened(shareId).flatMap(video -> video == null || video.streamKey == null
                ? Uni.createFrom().item(notFound(accept))
                : Blocking.offload(() -> read(video.streamKey))
                        .onFailure(ObjectStore::isUnavailable).transform(failure -> new ApiException(
                                ErrorCode.SERVICE_UNAVAILABLE,
                                "the video's stream cannot be read right now; retry later",
                                Outages.RETRY_AFTER))
                        .map(stored -> Response
                                .ok(stored != null ? stored : EMPTY_STREAM, STREAM_TYPE)
                                .header("Cache-Control", "no-store").header("X-Robots-Tag", "noindex, nofollow")
                                .header("Referrer-Policy", "no-referrer").build()));
    }

    /**
     * A viewer's retry after a failed render on view (the page's button): the render is asked for again while the
     * link has attempts left; the answer is the link's state, as {@code GET .../state} says it.
     */
    @POST
    @Path("{shareId}/render")
    public Uni<Response> retry(@PathParam("shareId") String shareId, @HeaderParam("Accept") String accept) {
        return pages.liveNow(shareId).flatMap(video -> video == null
                ? Uni.createFrom().item(notFound(accept))
                : claims.claim(video, true).flatMap(asked -> pages.liveNow(shareId))
                        .map(now -> now == null ? notFound(accept) : state(now)));
    }

    @GET
    @Path("{shareId}/email.gif")
    public Uni<Response> emailGif(@PathParam("shareId") String shareId, @HeaderParam("Accept") String accept) {
        long until = deadline();
        return openedNow(shareId).flatMap(video -> rendered(video, until)).flatMap(video -> {
            if (video != null && video.awaitsRender()) {
                return standIn(video, until);
            }
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
            // what is left of the image's one wait: a render that ended late leaves the GIF little, and the poster
            // answers (a render ending at 4.9 s then a GIF's own 5 s made 8-10 s, past what image proxies wait)
            return gifs.of(video).map(this::redirect)
                    .ifNoItem().after(left(until)).recoverWithUni(() -> standIn)
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

    /**
     * The live video of an open: a video rendered on view that nobody asked for yet is asked for now (once, whatever
     * the number of opens: {@link RenderClaims}); the page answers without waiting for the render.
     */
    private Uni<SharedVideoRow> opened(String shareId) {
        return pages.live(shareId).call(video -> claims.claim(video, false));
    }

    /** {@link #opened}, a video the cache shows still waiting for its render read again ({@link Pages#current}). */
    private Uni<SharedVideoRow> openedNow(String shareId) {
        return pages.current(shareId).call(video -> claims.claim(video, false));
    }

    /**
     * When an email's image (poster, GIF) answers at the latest, whose proxies give up after a few seconds: {@code
     * email-gif-wait} from now. A video being rendered on view is waited for until {@link #IMAGE_RESERVE} before it;
     * what is left of it goes to the poster cut from the stream or the GIF's making.
     */
    private long deadline() {
        return System.nanoTime() + config.emailGifWait().toNanos();
    }

    /** What is left until {@code until}, at least {@link #RENDER_POLL}. */
    private static java.time.Duration left(long until) {
        return java.time.Duration.ofNanos(Math.max(RENDER_POLL.toNanos(), until - System.nanoTime()));
    }

    /**
     * Looks at the row every {@link #RENDER_POLL} until the render has ended (or the link gone), or {@link
     * #IMAGE_RESERVE} before {@code until}.
     */
    private Uni<SharedVideoRow> rendered(SharedVideoRow video, long until) {
        if (video == null || !video.awaitsRender() || video.renderFailed()
                || System.nanoTime() >= until - IMAGE_RESERVE.toNanos()) {
            return Uni.createFrom().item(video);
        }
        return Contexts.resumeOnCurrent(Uni.createFrom().voidItem().onItem().delayIt().by(RENDER_POLL))
                .chain(() -> pages.liveNow(video.shareId))
                .onFailure().recoverWithItem(video)
                .flatMap(now -> now == null ? Uni.createFrom().nullItem() : rendered(now, until));
    }

    /** A video rendered on view without its video yet: where it stands, never cached. */
    private static Response state(SharedVideoRow video) {
        String state = video.videoKey != null ? "ready" : video.renderFailed() ? "failed" : "preparing";
        Response.ResponseBuilder answer = Response.ok("{\"state\":\"" + state + "\"}", MediaType.APPLICATION_JSON)
                .header("Cache-Control", "no-store").header("X-Robots-Tag", "noindex, nofollow");
        if (!"ready".equals(state)) {
            answer.header("Retry-After", "2");
        }
        return answer.build();
    }

    /**
     * The image of a video not rendered yet, not cached, so an email client's image proxy shows a picture now and the
     * video's own poster (or GIF) on its next fetch: the poster cut from its render's stream once the render has
     * written a segment ({@link StreamPosters}), else (and for a failed render) the platform's "being prepared"
     * picture.
     */
    private Uni<Response> standIn(SharedVideoRow video, long until) {
        if (video.renderFailed()) {
            return Uni.createFrom().item(preparingImage());
        }
        // after the render's bounded wait, what is left of the image's: an email client's image proxy gives up
        return posters.of(video).ifNoItem().after(left(until)).recoverWithItem(Optional.empty())
                .map(key -> key.map(poster -> redirect(poster, "no-store")).orElseGet(this::preparingImage))
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("the poster of %s cannot be cut from its stream (%s): the platform's picture stands in",
                            video.shareId, failure.getMessage());
                    return preparingImage();
                });
    }

    /** The platform's "being prepared" picture, not cached. */
    private Response preparingImage() {
        return Response.status(Response.Status.FOUND).location(URI.create(pages.absolute(PREPARING_IMAGE)))
                .header("Cache-Control", "no-store").header("Referrer-Policy", "no-referrer").build();
    }

    private Uni<Response> render(String shareId, boolean embed, String agent, String accept) {
        return pages.current(shareId).flatMap(video -> video == null
                ? Uni.createFrom().item(notFound(accept))
                : claims.open(video).flatMap(opening -> render(video, opening.orElse(null), embed, agent)));
    }

    /** The page of {@code video}; {@code opening}: the playlist this open wrote into its stream, for its player. */
    private Uni<Response> render(SharedVideoRow video, String opening, boolean embed, String agent) {
        Uni<Void> counted = Bots.isBot(agent) ? beacons.botPageLoad(video, agent) : Uni.createFrom().voidItem();
        return counted.flatMap(ignored -> Uni.combine().all()
                .unis(pages.vendor(video.clientId), tokens.issue(video.shareId)).asTuple()).map(both -> {
                    SharingSettings vendor = both.getItem1();
                    View view = view(video, vendor, embed, both.getItem2(), opening);
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
    }

    private View view(SharedVideoRow video, SharingSettings vendor, boolean embed, String viewToken,
            String opening) {
        String base = "/v/" + video.shareId;
        String logo = video.logoUrl != null ? video.logoUrl : vendor.logoUrl();
        String color = video.color != null ? video.color : vendor.color();
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        return new View(video.shareId, video.title == null || video.title.isBlank() ? "Your video" : video.title,
                "Logo", embed, video.videoKey == null, video.renderFailed(), pages.absolute(base),
                pages.absolute(base + "/embed"),
                pages.absolute(base + "/video.mp4"), pages.absolute(base + "/poster.jpg"), base + "/video.mp4",
                base + "/poster.jpg", video.captionsKey == null ? null : base + "/captions.vtt", video.width,
                video.height, logo, video.ctaLabel, video.ctaUrl,
                Base64.getEncoder().encodeToString(nonce),
                ":root{--accent:" + (color != null && COLOR.matcher(color).matches() ? color : "#1d3557") + "}",
                viewToken, video.videoKey == null && video.streamKey != null ? base + "/stream.m3u8" : null,
                video.videoKey == null && video.streamKey != null ? opening : null);
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
        return store.text(key, StreamOpenings.PLAYLIST_LIMIT).orElse(null);
    }
}
