package io.pmedia.media.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.Messages;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.render.RenderException;
import io.pmedia.media.render.WorkDirs;
import io.pmedia.media.render.engine.RenderEngines;
import io.pmedia.media.render.store.AssetFetcher;
import io.pmedia.media.render.store.StoreMotions;
import io.pmedia.media.template.AssetKind;
import io.pmedia.media.template.MediaData;
import io.pmedia.media.template.RenderInputs;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.media.template.TemplateDefinition;
import io.pmedia.media.template.TemplateResolutionException;
import io.pmedia.media.template.TemplateResolver;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Previews ({@code POST /templates/{templateId}/preview}): a request's data checked exactly as a render would check
 * it, then one frame drawn as a JPEG from only the segment that shows at that moment (its assets fetched through the
 * same safe fetcher, as the caller). Nothing is stored; no video is rendered.
 */
@ApplicationScoped
public class TemplatePreviews {

    /** A preview that takes longer fails: it drives a live form. */
    static final Duration TIME_LIMIT = Duration.ofSeconds(20);
    /**
     * What the preview's assets may take to fetch, all together: with {@link #TIME_LIMIT} it stays within the
     * gateway's 30 s, so a slow asset of the vendor's is its 400, not the gateway's 503.
     */
    static final Duration FETCH_LIMIT = Duration.ofSeconds(8);

    private final TemplateCatalog catalog;
    private final AssetFetcher assets;
    private final RenderEngines engines;
    private final MediaConfig config;
    private final StoreMotions motions;

    public TemplatePreviews(TemplateCatalog catalog, AssetFetcher assets, RenderEngines engines, MediaConfig config,
            StoreMotions motions) {
        this.catalog = catalog;
        this.assets = assets;
        this.engines = engines;
        this.config = config;
        this.motions = motions;
    }

    /**
     * The JPEG of the moment {@code time} seconds into the video (default: the middle of the first segment, where
     * the thumbnail is cut).
     *
     * @return 404 for a template the client may not use, 400 naming the problem for data a render would refuse
     */
    @WithSpan
    public Uni<byte[]> preview(UUID templateId, UUID clientId, MediaData data, Double time) {
        // resolved on the worker pool beside the drawing: one hop, and the template's owner goes with its still
        return catalog.usableBy(templateId, clientId).emitOn(Infrastructure.getDefaultWorkerPool()).map(version -> {
            TemplateDefinition definition = catalog.definition(version);
            ResolvedVideo video;
            try {
                video = TemplateResolver.resolve(definition, RenderInputs.fromCurrentForm(data));
            } catch (TemplateResolutionException e) {
                throw ApiException.validation(e.getMessage());
            }
            double at = time != null ? time : (double) (video.segments().get(0).frames() / 2) / video.canvas().fps();
            if (!(at >= 0 && at < video.durationSeconds())) {
                throw ApiException.validation("time must be from 0 to less than the video's "
                        + TemplateResolver.seconds(video.durationSeconds()) + " s");
            }
            return draw(clientId, video.stillAt(at), version.ownerClientId);
        });
    }

    /**
     * {@code owner}: the template's owner (null: shared), whose motions its lottie layers name (as
     * {@link StoreMotions#file}).
     */
    private byte[] draw(UUID clientId, ResolvedVideo.Still still, UUID owner) {
        Path work = config.workDir().resolve("previews").resolve(UUID.randomUUID().toString());
        try {
            Files.createDirectories(work);
            Map<String, Path> files = new LinkedHashMap<>();
            Instant fetchedBy = Instant.now().plus(FETCH_LIMIT);
            for (Map.Entry<String, AssetKind> asset : still.video().assets().entrySet()) {
                Duration left = Duration.between(Instant.now(), fetchedBy);
                if (left.isNegative() || left.isZero()) {
                    throw ApiException.validation("the preview's assets took more than " + FETCH_LIMIT.toSeconds()
                            + " s to fetch; asset " + Messages.abbreviate(asset.getKey(), 123) + " was not fetched");
                }
                files.put(asset.getKey(), assets.fetch(clientId, asset.getKey(), asset.getValue(), left));
            }
            motions.fetchInto(still.video(), owner, files);
            return Files.readAllBytes(engines.engine().still(still, files, work, TIME_LIMIT));
        } catch (RenderException e) {
            throw ApiException.validation(e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            WorkDirs.delete(work);
        }
    }
}
