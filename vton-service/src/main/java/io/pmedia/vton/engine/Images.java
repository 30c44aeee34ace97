package io.pmedia.vton.engine;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Iterator;
import java.util.List;

import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.net.DestinationPolicy;
import io.pmedia.common.net.FetchException;
import io.pmedia.common.net.FetchRequest;
import io.pmedia.common.net.FetchResponse;
import io.pmedia.common.net.SafeFetcher;
import io.pmedia.vton.config.VtonConfig;

/**
 * Images in and out: downloads through the shared {@link SafeFetcher} (http(s) only, no private, loopback,
 * link-local or metadata address, on every redirect), decodes with a pixel limit checked before decoding, encodes
 * PNG or JPEG.
 */
@ApplicationScoped
public class Images {

    private final SafeFetcher fetcher;
    private final VtonConfig config;

    public Images(SafeFetcher fetcher, VtonConfig config) {
        this.fetcher = fetcher;
        this.config = config;
    }

    /** The bytes of an image URL ({@code what} names it in messages: "model-image"). Blocking. */
    public byte[] download(String what, String url) {
        URI target;
        try {
            target = DestinationPolicy.parse(url);
        } catch (FetchException e) {
            throw new TryOnException(what + " " + abbreviate(url) + " could not be fetched: " + e.getMessage());
        }
        FetchRequest request = FetchRequest.get(target).withTimeout(config.fetchTimeout())
                // Generic binary types too: many stores serve images so; decoding decides what is an image.
                .withMaxBytes(config.maxImageBytes())
                .withAcceptedTypes(List.of("image/", "application/octet-stream", "binary/octet-stream"));
        try {
            FetchResponse response = fetcher.fetch(request).await().atMost(config.fetchTimeout().plusSeconds(5));
            if (!response.successful()) {
                throw new TryOnException(what + " " + abbreviate(url) + " answered HTTP " + response.status());
            }
            return response.body();
        } catch (FetchException e) {
            throw new TryOnException(what + " " + abbreviate(url) + " could not be fetched: " + e.getMessage());
        }
    }

    /** Checks that a URL a provider will fetch passes the same address policy (it is resolved here). Blocking. */
    public void check(String what, String url) {
        try {
            fetcher.policy().check(DestinationPolicy.parse(url));
        } catch (FetchException e) {
            throw new TryOnException(what + " " + abbreviate(url) + " is not allowed: " + e.getMessage());
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
    public static byte[] encode(BufferedImage image, String format) {
        BufferedImage output = image;
        if ("jpeg".equals(format) && image.getType() != BufferedImage.TYPE_INT_RGB) {
            output = new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
            var graphics = output.createGraphics();
            graphics.setColor(java.awt.Color.WHITE);
            graphics.fillRect(0, 0, image.getWidth(), image.getHeight());
            graphics.drawImage(image, 0, 0, null);
            graphics.dispose();
        }
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            if (!ImageIO.write(output, "jpeg".equals(format) ? "jpg" : "png", bytes)) {
                throw new IllegalStateException("no ImageIO writer for " + format);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String contentType(String format) {
        return "jpeg".equals(format) ? "image/jpeg" : "image/png";
    }

    static String abbreviate(String url) {
        return url.length() <= 120 ? url : url.substring(0, 117) + "...";
    }
}
