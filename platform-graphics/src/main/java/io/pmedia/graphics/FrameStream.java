package io.pmedia.graphics;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Writes a scene's frames as raw video (RGBA, straight alpha, no header) to a stream, typically the standard
 * input of an FFmpeg reading {@code -f rawvideo -pix_fmt rgba -s WxH -r FPS -i pipe:0}. A frame whose state is
 * the previous one's is not drawn again: its bytes are written again (most frames of a template are still).
 */
public final class FrameStream {

    private FrameStream() {
    }

    /**
     * @return how many frames were drawn (the rest were repeated)
     */
    public static long write(FrameRenderer renderer, long frames, OutputStream out) throws IOException {
        byte[] last = null;
        Object lastState = null;
        long drawn = 0;
        for (long i = 0; i < frames; i++) {
            Object state = renderer.state(i);
            if (last == null || !Objects.equals(state, lastState)) {
                last = renderer.render(i);
                lastState = state;
                drawn++;
            }
            out.write(last);
        }
        out.flush();
        return drawn;
    }
}
