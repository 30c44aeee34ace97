package io.pmedia.vton.engine;

import static io.pmedia.common.error.Messages.abbreviate;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;

import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.net.DestinationPolicy;
import io.pmedia.common.net.FetchException;
import io.pmedia.common.net.FetchRequest;
import io.pmedia.common.net.SafeFetcher;
import io.pmedia.storage.ObjectStore;
import io.pmedia.vton.OutputFormat;
import io.pmedia.vton.config.VtonConfig;
import io.smallrye.mutiny.Uni;

/**
 * Images in and out: downloads through the shared {@link SafeFetcher} (http(s) only, no private, loopback,
 * link-local or metadata address, on every redirect), decodes with a pixel limit checked before decoding, encodes
 * PNG or JPEG. An image in the platform's own object store is read with the platform's credentials, and only when it
 * is the requesting vendor's own object; another vendor's object fails exactly like a missing one.
 */
@ApplicationScoped
public class Images {

    /** The longest URL in a message. */
    private static final int SHOWN = 120;

    /** How long a presigned URL handed to the try-on provider lives: enough for one prediction. */
    private static final Duration PROVIDER_URL_TTL = Duration.ofMinutes(30);

    private final SafeFetcher fetcher;
    private final ObjectStore store;
    private final VtonConfig config;

    public Images(SafeFetcher fetcher, ObjectStore store, VtonConfig config) {
        this.fetcher = fetcher;
        this.store = store;
        this.config = config;
    }

    /**
     * The bytes of an image URL of a request of {@code clientId} ({@code what} names it in messages: "model-image").
     * Call it on a Vert.x context: reading the object store is blocking work and runs on a worker thread.
     */
    public Uni<byte[]> download(UUID clientId, String what, String url) {
        if (isObjectPath(url)) {
            return Blocking.offload(() -> readOwned(clientId, what, url));
        }
        URI target;
        try {
            target = parse(what, url);
        } catch (TryOnException e) {
            return Uni.createFrom().failure(e);
        }
        if (store.addresses(target)) {
            return Blocking.offload(() -> readOwned(clientId, what, url));
        }
        FetchRequest request = FetchRequest.get(target).withTimeout(config.fetchTimeout())
                // Generic binary types too: many stores serve images so; decoding decides what is an image.
                .withMaxBytes(config.maxImageBytes())
                .withAcceptedTypes(List.of("image/", "application/octet-stream", "binary/octet-stream"));
        return fetcher.fetch(request)
                .ifNoItem().after(config.fetchTimeout().plusSeconds(5)).fail()
                .onFailure(FetchException.class).transform(e -> new TryOnException(
                        what + " " + abbreviate(url, SHOWN) + " could not be fetched: " + e.getMessage()))
                .map(response -> {
                    if (!response.successful()) {
                        throw new TryOnException(
                                what + " " + abbreviate(url, SHOWN) + " answered HTTP " + response.status());
                    }
                    return response.body();
                });
    }

    /** The vendor's own object of the platform's store. Blocking. */
    private byte[] readOwned(UUID clientId, String what, String url) {
        String key = ownedKey(clientId, what, url);
        try (InputStream in = store.open(key).orElseThrow(() -> notFound(what, url))) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, config.maxImageBytes() + 1));
            if (bytes.length > config.maxImageBytes()) {
                throw new TryOnException(
                        what + " " + abbreviate(url, SHOWN) + " could not be fetched: the body is larger"
                                + " than " + config.maxImageBytes() + " bytes");
            }
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The URL a provider may fetch for this image: the vendor's own object of the platform's store as a short-lived
     * presigned URL (the store admits no anonymous reader), any other URL as given once it passes the same address
     * policy as our own fetches (it is resolved here). Blocking.
     */
    public String forProvider(UUID clientId, String what, String url) {
        URI target = isObjectPath(url) ? null : parse(what, url);
        if (target == null || store.addresses(target)) {
            String key = ownedKey(clientId, what, url);
            if (store.size(key).isEmpty()) {
                throw notFound(what, url);
            }
            return store.publicUrl(key, PROVIDER_URL_TTL);
        }
        try {
            fetcher.policy().check(target);
        } catch (FetchException e) {
            throw new TryOnException(what + " " + abbreviate(url, SHOWN) + " is not allowed: " + e.getMessage());
        }
        return url;
    }

    /** {@code s3://bucket/key}: the store's own spelling of an object (whose it is, {@link #ownedKey} decides). */
    private static boolean isObjectPath(String url) {
        return url.regionMatches(true, 0, "s3://", 0, "s3://".length());
    }

    private String ownedKey(UUID clientId, String what, String url) {
        return store.ownedKey(clientId, url).orElseThrow(() -> notFound(what, url));
    }

    private static TryOnException notFound(String what, String url) {
        return new TryOnException(what + " " + abbreviate(url, SHOWN) + " could not be fetched: not found");
    }

    private static URI parse(String what, String url) {
        try {
            return DestinationPolicy.parse(url);
        } catch (FetchException e) {
            throw new TryOnException(what + " " + abbreviate(url, SHOWN) + " could not be fetched: " + e.getMessage());
        }
    }

    /** Decodes PNG, JPEG, GIF or BMP, refusing images over the pixel limit before decoding them. */
    public BufferedImage decode(String what, byte[] bytes) {
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
            Iterator<ImageReader> readers = in == null ? null : ImageIO.getImageReaders(in);
            if (readers == null || !readers.hasNext()) {
                throw new TryOnException(what + " is not an image this service can read (PNG, JPEG, GIF, BMP)");
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(in, true, true);
                long pixels = (long) reader.getWidth(0) * reader.getHeight(0);
                if (pixels > config.maxImagePixels()) {
                    throw new TryOnException(what + " has " + pixels + " pixels, more than the limit of "
                            + config.maxImagePixels());
                }
                return reader.read(0);
            } finally {
                reader.dispose();
            }
        } catch (IOException e) {
            throw new TryOnException(what + " cannot be decoded: " + e.getMessage());
        }
    }

    /** PNG or JPEG bytes of {@code image}. */
    public static byte[] encode(BufferedImage image, OutputFormat format) {
        BufferedImage output = image;
        if (format == OutputFormat.JPEG && image.getType() != BufferedImage.TYPE_INT_RGB) {
            output = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
            var graphics = output.createGraphics();
            graphics.setColor(java.awt.Color.WHITE);
            graphics.fillRect(0, 0, image.getWidth(), image.getHeight());
            graphics.drawImage(image, 0, 0, null);
            graphics.dispose();
        }
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            if (!ImageIO.write(output, format.extension(), bytes)) {
                throw new IllegalStateException("no ImageIO writer for " + format);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
