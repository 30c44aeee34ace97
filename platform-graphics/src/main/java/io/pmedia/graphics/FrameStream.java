package io.pmedia.graphics;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

/**
 * Writes a scene's frames as raw video (RGBA, straight alpha, no header) to a stream, typically the standard
 * input of an FFmpeg reading {@code -f rawvideo -pix_fmt rgba -s WxH -r FPS -i pipe:0}. A frame whose state is
 * the previous one's is not drawn again: its bytes are written again (most frames of a template are still).
 * <p>
 * The frames are drawn on a thread of their own, a few frames ahead of the writing. An FFmpeg with one input reads
 * its pipe only between the frames it filters and encodes, so a renderer that wrote what it had just drawn would
 * wait for FFmpeg while FFmpeg waits for it: the two would take turns on a machine with a core to spare for each.
 */
public final class FrameStream {

    /** How many bytes of drawn frames may wait for the stream, at most (at least one frame always may). */
    static final long AHEAD_BYTES = 16L << 20;
    /** At most this many frames wait: enough to even out the frames that take longer to draw. */
    static final int MAX_AHEAD = 4;

    private FrameStream() {
    }

    /** How many drawn frames of {@code scene} may wait for the stream. */
    static int ahead(Scene scene) {
        long frameBytes = 4L * scene.frameWidth() * scene.frameHeight();
        return (int) Math.max(1, Math.min(MAX_AHEAD, AHEAD_BYTES / frameBytes));
    }

    /**
     * Draws frames 0 to {@code frames - 1} on a drawing thread (the renderer is used by that thread alone until
     * this returns) and writes them to {@code out} on the calling thread, in order.
     *
     * @return how many frames were drawn (the rest were repeated)
     * @throws IOException when the stream fails (FFmpeg stopped reading); the drawing stops too
     * @throws RuntimeException what the renderer threw (a refused scene), after the frames before it were written
     */
    public static long write(FrameRenderer renderer, long frames, OutputStream out) throws IOException {
        return write(renderer, LongStream.range(0, frames).toArray(), out);
    }

    /**
     * Draws the frames {@code frames} lists (ascending; typically {@link FrameRenderer#changes}, the stream then
     * carrying each picture once) and writes them to {@code out}, in order, as {@link #write(FrameRenderer, long,
     * OutputStream)} does.
     */
    public static long write(FrameRenderer renderer, long[] frames, OutputStream out) throws IOException {
        BlockingQueue<Object> queue = new ArrayBlockingQueue<>(ahead(renderer.scene()));
        AtomicLong drawn = new AtomicLong();
        Thread drawer = new Thread(() -> draw(renderer, frames, queue, drawn), "graphics-draw");
        drawer.setDaemon(true);
        drawer.start();
        try {
            for (int i = 0; i < frames.length; i++) {
                Object next = queue.take();
                if (next instanceof Failure failure) {
                    failure.rethrow();
                }
                out.write((byte[]) next);
            }
            out.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while writing frames");
        } finally {
            drawer.interrupt();
            joinQuietly(drawer);
        }
        return drawn.get();
    }

    private static void draw(FrameRenderer renderer, long[] frames, BlockingQueue<Object> queue, AtomicLong drawn) {
        try {
            byte[] last = null;
            Object lastState = null;
            for (int k = 0; k < frames.length && !Thread.currentThread().isInterrupted(); k++) {
                long i = frames[k];
                Object item;
                try {
                    Object state = renderer.state(i);
                    if (last == null || !Objects.equals(state, lastState)) {
                        last = renderer.render(i);
                        lastState = state;
                        drawn.incrementAndGet();
                    }
                    item = last;
                } catch (RuntimeException | Error e) {
                    queue.put(new Failure(e));
                    return;
                }
                queue.put(item);
            }
        } catch (InterruptedException e) {
            // the writing stopped: so does the drawing
        }
    }

    /** Waits for the drawing thread, which stops within a frame once interrupted; keeps the caller's interrupt. */
    private static void joinQuietly(Thread drawer) {
        boolean interrupted = false;
        while (drawer.isAlive()) {
            try {
                drawer.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** What the drawing thread threw, handed to the writing thread in the frames' place. */
    private record Failure(Throwable cause) {

        /** Throws the cause itself (a RuntimeException or an Error: nothing else is caught). */
        void rethrow() {
            if (cause instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) cause;
        }
    }
}
