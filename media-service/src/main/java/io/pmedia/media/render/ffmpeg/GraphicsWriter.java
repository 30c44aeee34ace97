package io.pmedia.media.render.ffmpeg;

import java.io.IOException;
import java.io.OutputStream;

import org.jboss.logging.Logger;

/**
 * The thread that draws a command's graphics and writes them to FFmpeg's standard input while FFmpeg runs. When
 * FFmpeg stops reading (it failed, or was killed) the write fails and the thread ends: FFmpeg's exit code and log
 * say why. A failure of the engine itself closes the pipe early, so FFmpeg fails on a short input and the render
 * with it; the cause is logged.
 */
final class GraphicsWriter {

    private static final Logger LOG = Logger.getLogger(GraphicsWriter.class);

    private final Thread thread;

    private GraphicsWriter(Thread thread) {
        this.thread = thread;
    }

    static GraphicsWriter start(GraphicsInput graphics, Process process) {
        Thread thread = new Thread(() -> {
            try (OutputStream out = process.getOutputStream()) {
                graphics.write(out);
            } catch (IOException e) {
                LOG.debugf("ffmpeg stopped reading the graphics: %s", e.getMessage());
            } catch (RuntimeException | Error e) {
                LOG.errorf(e, "the graphics engine failed");
            }
        }, "graphics-writer");
        thread.setDaemon(true);
        thread.start();
        return new GraphicsWriter(thread);
    }

    void join() throws InterruptedException {
        thread.join();
    }
}
