package io.pmedia.media.render.store;

import static io.pmedia.common.error.Messages.abbreviate;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
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
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.net.DestinationPolicy;
import io.pmedia.common.net.FetchException;
import io.pmedia.common.net.FetchRequest;
import io.pmedia.common.net.FetchResponse;
import io.pmedia.common.net.SafeFetcher;
import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.render.RenderException;
import io.pmedia.media.template.AssetKind;
import io.pmedia.storage.ObjectStore;

/**
 * Brings vendor assets to local files through the shared safe fetcher, and keeps them in a disk cache keyed by URL:
 * An asset in the platform's own object store is read with the platform's credentials, and only when it lies in the
 * requesting vendor's namespace: another vendor's object fails exactly like a missing one ("not found").
 * a fresh copy is used as is, an older one is revalidated with its ETag / Last-Modified (a 304 costs no body), so
 * an asset many requests share is downloaded once. Bounded in size; least recently used entries go first.
 * Blocking: render workers call it from their own threads.
 */
@ApplicationScoped
public class AssetFetcher {

    /** The longest URL in a message. */
    private static final int SHOWN = 123;

    /** What the cache remembers of an entry besides its bytes. */
    record Meta(String url, String etag, String lastModified, String contentType, Instant fetchedAt, long size) {
    }

    private static final Logger LOG = Logger.getLogger(AssetFetcher.class);

    private final SafeFetcher fetcher;
    private final ObjectStore store;
    private final MediaConfig.Assets config;
    private final Path cache;
    private final ObjectMapper mapper;

    public AssetFetcher(SafeFetcher fetcher, ObjectStore store, MediaConfig config, ObjectMapper mapper) {
        this.fetcher = fetcher;
        this.store = store;
        this.config = config.assets();
        this.cache = config.workDir().resolve("asset-cache");
        this.mapper = mapper;
    }

    /**
     * The local file holding {@code url}'s content for a render of {@code clientId}; fails with a vendor-readable
     * {@link RenderException}.
     */
    public Path fetch(UUID clientId, String url, AssetKind kind) {
        return fetch(clientId, url, kind, config.fetchTimeout());
    }

    /**
     * As {@link #fetch(UUID, String, AssetKind)}, a URL's fetch given at most {@code timeout} (and never more than
     * {@code fetch-timeout}): for a caller that answers a person waiting, within the gateway's own time.
     */
    public Path fetch(UUID clientId, String url, AssetKind kind, Duration timeout) {
        Duration limit = timeout.compareTo(config.fetchTimeout()) < 0 ? timeout : config.fetchTimeout();
        if (url.regionMatches(true, 0, "s3://", 0, "s3://".length())) {
            return fromStore(clientId, url, kind);
        }
        URI target;
        try {
            target = DestinationPolicy.parse(url);
        } catch (FetchException e) {
            throw new RenderException("asset " + abbreviate(url, SHOWN) + " could not be fetched: " + e.getMessage());
        }
        if (store.addresses(target)) {
            return fromStore(clientId, url, kind);
        }
        return fromWeb(url, target, kind, limit);
    }

    /** An object of the platform's store, read with its credentials when (and only when) the vendor owns it. */
    private Path fromStore(UUID clientId, String url, AssetKind kind) {
        String objectKey = store.ownedKey(clientId, url)
                .orElseThrow(
                        () -> new RenderException(
                                "asset " + abbreviate(url, SHOWN) + " could not be fetched: not found"));
        String key = key("s3:" + objectKey);
        Path data = cache.resolve(key + ".data");
        Path metaFile = cache.resolve(key + ".json");
        Meta meta = readMeta(metaFile);
        if (meta != null && Files.isRegularFile(data) && meta.fetchedAt().plus(config.fresh()).isAfter(Instant.now())) {
            touch(metaFile);
            return data;
        }
        Path partial = cache.resolve(key + "." + UUID.randomUUID() + ".part");
        long max = maxBytes(kind);
        try {
            Files.createDirectories(cache);
            try (InputStream in = store.open(objectKey).orElseThrow(
                    () -> new RenderException(
                            "asset " + abbreviate(url, SHOWN) + " could not be fetched: not found"))) {
                long size;
                try (var out = Files.newOutputStream(partial)) {
                    size = in.transferTo(new LimitedOutputStream(out, max, () -> new RenderException(
                            "asset " + abbreviate(url, SHOWN) + " could not be fetched: the body is larger than " + max
                                    + " bytes")));
                }
                Files.move(partial, data, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                writeMeta(metaFile, new Meta("s3:" + objectKey, null, null, null, Instant.now(), size));
            }
            evictBeyondBound();
            return data;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteQuietly(partial);
        }
    }

    private long maxBytes(AssetKind kind) {
        return kind == AssetKind.VIDEO ? config.maxVideoSize().asLongValue() : config.maxImageSize().asLongValue();
    }

    private Path fromWeb(String url, URI target, AssetKind kind, Duration timeout) {
        String key = key(url);
        Path data = cache.resolve(key + ".data");
        Path metaFile = cache.resolve(key + ".json");
        Meta meta = readMeta(metaFile);
        if (meta != null && Files.isRegularFile(data)) {
            if (meta.fetchedAt().plus(config.fresh()).isAfter(Instant.now())) {
                touch(metaFile);
                return data;
            }
        } else {
            meta = null;
        }
        Path partial = cache.resolve(key + "." + UUID.randomUUID() + ".part");
        FetchRequest request = FetchRequest.get(target)
                .withTimeout(timeout)
                .withMaxBytes(maxBytes(kind))
                .withAcceptedTypes(kind.contentTypes())
                .withSaveTo(partial);
        if (meta != null && meta.etag() != null) {
            request = request.withHeader("If-None-Match", meta.etag());
        }
        if (meta != null && meta.lastModified() != null) {
            request = request.withHeader("If-Modified-Since", meta.lastModified());
        }
        try {
            Files.createDirectories(cache);
            FetchResponse response = fetcher.fetch(request).await().atMost(timeout.plusSeconds(5));
            if (response.status() == 304 && meta != null) {
                writeMeta(metaFile, new Meta(url, meta.etag(), meta.lastModified(), meta.contentType(), Instant.now(),
                        meta.size()));
                return data;
            }
            if (!response.successful()) {
                throw new RenderException("asset " + abbreviate(url, SHOWN) + " answered HTTP " + response.status());
            }
            Files.move(partial, data, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            writeMeta(metaFile, new Meta(url, response.header("etag"), response.header("last-modified"),
                    response.contentType(), Instant.now(), response.size()));
            evictBeyondBound();
            return data;
        } catch (FetchException e) {
            throw new RenderException("asset " + abbreviate(url, SHOWN) + " could not be fetched: " + e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteQuietly(partial);
        }
    }

    private static void deleteQuietly(Path partial) {
        try {
            Files.deleteIfExists(partial);
        } catch (IOException ignored) {
            // a leftover partial file is removed by eviction later
        }
    }

    /** Fails once more than {@code max} bytes were written, so a huge object never fills the disk. */
    private static final class LimitedOutputStream extends FilterOutputStream {

        private final long max;
        private final Supplier<RuntimeException> tooLarge;
        private long written;

        LimitedOutputStream(OutputStream out, long max, Supplier<RuntimeException> tooLarge) {
            super(out);
            this.max = max;
            this.tooLarge = tooLarge;
        }

        @Override
        public void write(int b) throws IOException {
            count(1);
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            count(len);
            out.write(b, off, len);
        }

        private void count(long n) {
            written += n;
            if (written > max) {
                throw tooLarge.get();
            }
        }
    }

    private Meta readMeta(Path file) {
        try {
            return Files.isRegularFile(file) ? mapper.readValue(Files.readString(file), Meta.class) : null;
        } catch (IOException e) {
            return null;
        }
    }

    private void writeMeta(Path file, Meta meta) throws IOException {
        Path temp = file.resolveSibling(file.getFileName() + "." + UUID.randomUUID() + ".tmp");
        Files.writeString(temp, mapper.writeValueAsString(meta), StandardCharsets.UTF_8);
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void touch(Path file) {
        try {
            Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
        } catch (IOException ignored) {
            // only affects eviction order
        }
    }

    /** Removes least recently used entries while the cache is over its bound. */
    synchronized void evictBeyondBound() throws IOException {
        long bound = config.cacheSize().asLongValue();
        List<Path> metas = new ArrayList<>();
        long total = 0;
        try (Stream<Path> files = Files.list(cache)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                if (name.endsWith(".json")) {
                    metas.add(file);
                } else if (name.endsWith(".data")) {
                    total += Files.size(file);
                } else if (name.endsWith(".part") && Files.getLastModifiedTime(file).toInstant()
                        .isBefore(Instant.now().minus(Duration.ofHours(1)))) {
                    Files.deleteIfExists(file);
                }
            }
        }
        if (total <= bound) {
            return;
        }
        metas.sort(Comparator.comparing(AssetFetcher::lastModified));
        for (Path meta : metas) {
            if (total <= bound) {
                break;
            }
            Path data = meta.resolveSibling(meta.getFileName().toString().replace(".json", ".data"));
            long size = Files.exists(data) ? Files.size(data) : 0;
            Files.deleteIfExists(meta);
            Files.deleteIfExists(data);
            total -= size;
            LOG.debugf("evicted cached asset %s", data.getFileName());
        }
    }

    private static FileTime lastModified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    static String key(String url) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(url.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

}
