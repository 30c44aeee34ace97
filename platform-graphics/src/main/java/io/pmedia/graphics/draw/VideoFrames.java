package io.pmedia.graphics.draw;

import java.io.IOException;
import java.io.InputStream;

/**
 * Where a video layer's frames come from: the engine decodes no video itself (frames in, frames out), so whoever
 * builds the scene hands it a stream of raw frames, RGBA with straight alpha, one after the other with no header,
 * each of the size the layer names, one per frame of the scene from the layer's start.
 */
@FunctionalInterface
public interface VideoFrames {

    /**
     * Opens the stream, when the layer first shows. Closing it stops whatever produces the frames. A stream that ends
     * early ends the video (it holds its last frame); a read that fails says why in its exception's message, which
     * the engine shows under the layer's name.
     */
    InputStream open() throws IOException;
}
