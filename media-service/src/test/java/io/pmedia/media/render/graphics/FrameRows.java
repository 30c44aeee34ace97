package io.pmedia.media.render.graphics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;

import io.pmedia.media.render.Media;

/**
 * Rows of a rendered 320x180 grey frame of the keyframe templates (PictureKeyframesRenderTest), where a bright layer
 * starts on one, and the layers that keep their place around the moving one.
 */
final class FrameRows {

    static final int WIDTH = 320;

    private FrameRows() {
    }

    static int[] row(byte[] frame, int y) {
        int[] row = new int[WIDTH];
        for (int x = 0; x < WIDTH; x++) {
            row[x] = frame[y * WIDTH + x] & 0xff;
        }
        return row;
    }

    /** The first column brighter than half the brightest: the layer's left edge (-1 when none is). */
    static double leftEdge(int[] row, int brightest) {
        for (int x = 0; x < row.length; x++) {
            if (row[x] > brightest / 2) {
                return x;
            }
        }
        return -1;
    }

    /** The still picture FFmpeg overlays is in its box at (280, 140), the text under the moving layer is drawn. */
    static void assertPictureOverAndTextUnder(byte[] frame) {
        assertThat(frame[160 * WIDTH + 300] & 0xff).as("the still picture").isGreaterThan(220);
        assertThat(Media.brighterThan(Arrays.copyOfRange(frame, 0, 60 * WIDTH), 128)).as("the text").isGreaterThan(50);
    }
}
