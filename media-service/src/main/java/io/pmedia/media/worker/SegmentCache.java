package io.pmedia.media.worker;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.render.Cue;
import io.pmedia.media.render.FilterGraphCompiler;
import io.pmedia.media.render.RenderEngine;
import io.pmedia.media.template.ResolvedVideo;
import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.VendorNamespace;

/**
 * The segment cache (docs/media.md, "Segment cache"): a segment whose picture does not depend on the request is
 * rendered once per vendor, template version, content and encoder setting, kept in the object store under the
 * vendor's {@code cache/} prefix and in a size-bounded directory on each worker, and joined with the request's own
 * segments without re-encoding. A cold worker warms from the store, not by rendering. A new template version is a
 * new key, so nothing needs invalidating.
 */
@ApplicationScoped
public class SegmentCache {

    /** Whose cache, and which template version it is for. */
    public record Scope(UUID clientId, UUID templateId, int version) {
    }

    /** Bumped when the way pieces are made changes in a way their key does not show. */
    static final String FORMAT = "v1";
    private static final Logger LOG = Logger.getLogger(SegmentCache.class);

    private final ObjectStore store;
    private final ObjectMapper mapper;
    private final StoreRetry retry;
    private final MeterRegistry registry;
    private final Path local;
    private final long bound;
    private final boolean enabled;

    public SegmentCache(ObjectStore store, ObjectMapper mapper, StoreRetry retry, MeterRegistry registry,
            MediaConfig config) {
        this.store = store;
        this.mapper = mapper;
        this.retry = retry;
        this.registry = registry;
        this.local = config.workDir().resolve("segment-cache");
        this.bound = config.render().segmentCacheSize().asLongValue();
        this.enabled = config.render().segmentCache();
    }

    /**
     * Renders {@code video}: with the cache when it has a segment that does not depend on the request and the
     * template keeps segments apart (no transitions, one output, no burnt-in captions); else as one FFmpeg run.
     */
    public RenderEngine.RenderOutput render(RenderEngine engine, Scope scope, ResolvedVideo video,
            Map<String, Path> assets, List<Path> speech, List<Cue> cues, boolean stream, Path work,
            Duration limit) {
        if (!enabled || !cacheable(video) || scope.templateId() == null) {
            return engine.render(video, assets, speech, cues, stream, work, limit);
        }
        List<Path> pieces = new ArrayList<>();
        List<Integer> missing = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < video.segments().size(); k++) {
            ResolvedVideo.Segment segment = video.segments().get(k);
            String key = segment.personal() ? null : key(scope, video, segment);
            keys.add(key);
            Path cached = key == null ? null : retry.get(() -> lookup(key).orElse(null), Path.class);
            if (key != null) {
                registry.counter("pmedia.render.segment.cache", "outcome", cached == null ? "miss" : "hit")
                        .increment();
            }
            pieces.add(cached);
            if (cached == null) {
                missing.add(k);
            }
        }
        LOG.debugf("segment cache for %s v%d: %d of %d segments to render (%s)", scope.templateId(), scope.version(),
                missing.size(), video.segments().size(), keys);
        if (!missing.isEmpty()) {
            List<Path> rendered = engine.renderPieces(video, missing, assets, work, limit);
            for (int i = 0; i < missing.size(); i++) {
                int k = missing.get(i);
                pieces.set(k, rendered.get(i));
                if (keys.get(k) != null) {
                    String key = keys.get(k);
                    Path piece = rendered.get(i);
                    retry.run(() -> keep(key, piece));
                }
            }
        }
        return engine.assemble(video, pieces, assets, speech, stream, work, limit);
    }

    /** Whether a render of {@code video} can use the cache at all. */
    static boolean cacheable(ResolvedVideo video) {
        return video.outputs().size() == 1 && !video.burnInCaptions()
                && video.segments().stream().allMatch(s -> s.transition() == null)
                && video.segments().stream().anyMatch(s -> !s.personal());
    }

    /** The object key of a segment's piece: its content, the template version and the encoder settings, hashed. */
    String key(Scope scope, ResolvedVideo video, ResolvedVideo.Segment segment) {
        String content;
        try {
            content = mapper.writeValueAsString(segment) + "|" + mapper.writeValueAsString(video.canvas());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        String identity = FORMAT + "|" + scope.templateId() + "|" + scope.version() + "|"
                + FilterGraphCompiler.pieceEncoding(video.canvas().fps()) + "|" + content;
        return VendorNamespace.Kind.CACHE.prefix(scope.clientId()) + scope.templateId() + "/" + scope.version()
                + "/" + sha256(identity) + ".mp4";
    }

    /** The local file of a cached piece: from this worker's directory, else from the store; empty on a miss. */
    Optional<Path> lookup(String key) {
        Path file = local.resolve(key);
        if (Files.isRegularFile(file)) {
            touch(file);
            return Optional.of(file);
        }
        Optional<InputStream> object = store.open(key);
        if (object.isEmpty()) {
            return Optional.empty();
        }
        try (InputStream in = object.get()) {
            Files.createDirectories(file.getParent());
            Path partial = file.resolveSibling(file.getFileName() + "." + UUID.randomUUID() + ".part");
            Files.copy(in, partial);
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            evict();
            return Optional.of(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Keeps a newly rendered piece: in the store for every worker, and here. */
    void keep(String key, Path piece) {
        store.put(key, piece, "video/mp4");
        try {
            Path file = local.resolve(key);
            Files.createDirectories(file.getParent());
            Path partial = file.resolveSibling(file.getFileName() + "." + UUID.randomUUID() + ".part");
            Files.copy(piece, partial);
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            evict();
        } catch (IOException e) {
            LOG.warnf("cannot keep segment %s locally: %s", key, e.getMessage());
        }
    }

    /** Removes the least recently used pieces while the local directory is over its bound. */
    private synchronized void evict() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(local)) {
            files = new ArrayList<>(walk.filter(Files::isRegularFile).filter(f -> f.toString().endsWith(".mp4"))
                    .toList());
        }
        long total = 0;
        for (Path file : files) {
            total += Files.size(file);
        }
        files.sort(Comparator.comparing(SegmentCache::lastUsed));
        for (Path file : files) {
            if (total <= bound) {
                break;
            }
            total -= Files.size(file);
            Files.deleteIfExists(file);
        }
    }

    private static FileTime lastUsed(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.from(Instant.EPOCH);
        }
    }

    private static void touch(Path file) {
        try {
            Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
        } catch (IOException e) {
            // only the eviction order suffers
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
