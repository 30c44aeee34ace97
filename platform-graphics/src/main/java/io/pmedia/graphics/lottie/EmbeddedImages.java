package io.pmedia.graphics.lottie;

import java.util.Base64;
import java.util.Optional;

import io.pmedia.graphics.draw.PictureFile;

/**
 * The pictures a Lottie file carries as {@code data:} URIs, and those a template puts into its image slots, held to
 * the bound of every other picture ({@link PictureFile#MAX_PIXELS}): a small file must not unpack into gigabytes on
 * a render worker. The header is read, never the pixels.
 */
final class EmbeddedImages {

    private EmbeddedImages() {
    }

    /** The bytes of a {@code data:} URI's base64 payload; empty when it is not base64. */
    static Optional<byte[]> bytes(String uri) {
        try {
            return Optional.of(Base64.getMimeDecoder().decode(uri.substring(uri.indexOf(',') + 1)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Refuses {@code encoded} when its header says more than {@link PictureFile#MAX_PIXELS} pixels; a file whose
     * header cannot be read passes (it is not drawn, as Skottie would not draw it).
     *
     * @throws LottieException at {@code pointer}, naming {@code what}
     */
    static void checkSize(byte[] encoded, String pointer, String what) {
        Optional<PictureFile.Header> header = PictureFile.read(encoded);
        if (header.isPresent() && header.get().tooLarge()) {
            throw new LottieException(pointer, what + " is " + header.get().sizeRefusal());
        }
    }
}
