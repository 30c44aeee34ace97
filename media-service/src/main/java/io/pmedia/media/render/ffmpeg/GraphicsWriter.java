package io.pmedia.media.render.ffmpeg;

import java.io.IOException;
import java.io.OutputStream;

import org.jboss.logging.Logger;

import io.pmedia.graphics.error.SceneException;

/**
 * The thread that draws a command's graphics and writes them to FFmpeg's standard input while FFmpeg runs. When
 * FFmpeg stops reading (it failed, or was killed) the write fails and the thread ends: FFmpeg's exit code and log
 * say why. A failure of the engine itself closes the pipe early, so FFmpeg fails on a short input and the render
 * with it; the cause is logged. A scene the engine refuses (a picture that does not decode) is kept as
 * {@link #refusal()}: FFmpeg may well finish on the frames it had, and the render must fail anyway, saying why.
 */
final class GraphicsWriter {

    private static final Logger LOG = Logger.getLogger(GraphicsWriter.class);

    private final Thread thread;
    private volatile SceneException refusal;

    private GraphicsWriter(GraphicsInput graphics, Process process) {
        this.thread = new Thread(() -> {
            try (OutputStream out = process.getOutputStream()) {
                graphics.write(out);
            } catch (IOException e) {
                LOG.debugf("ffmpeg stopped reading the graphics: %s", e.getMessage());
            } catch (SceneException e) {
                refusal = e;
            } catch (RuntimeException | Error e) {
                LOG.errorf(e, "the graphics engine failed");
            }
        }, "graphics-writer");
    }

    static GraphicsWriter start(GraphicsInput graphics, Process process) {
        GraphicsWriter writer = new GraphicsWriter(graphics, process);
        writer.thread.setDaemon(true);
        writer.thread.start();
        return writer;
    }

    void join() throws InterruptedException {
        thread.join();
    }

    /** What the engine refused of the scene, named by its path (safe to show); null when it drew every frame. */
    SceneException refusal() {
        return refusal;
    }
}
