package io.pmedia.media.render;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * FFmpeg runs of one render that do not need each other (a cached render's personal chunk runs, its sound and its
 * opening; the join and the thumbnail), run at the same time: a run leaves a core idle for much of its life (its
 * start, its seek, the encoder's ramp), so two short runs side by side finish well before the two in a row.
 */
public final class Concurrently {

    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ExecutorService RUNS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "render-side-" + THREADS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    private Concurrently() {
    }

    /**
     * Runs every task, the first on the calling thread, and returns their results in order once all have ended. When
     * one fails, the others still end (each FFmpeg run has its time limit) and the first failure is thrown as it was;
     * when the caller is interrupted, the runs are interrupted, which kills their processes.
     */
    public static <T> List<T> all(List<Callable<T>> tasks) {
        if (tasks.size() == 1) {
            return List.of(call(tasks.get(0)));
        }
        List<Future<T>> others = new ArrayList<>();
        for (Callable<T> task : tasks.subList(1, tasks.size())) {
            others.add(RUNS.submit(task));
        }
        List<T> results = new ArrayList<>();
        RuntimeException failure = null;
        try {
            results.add(call(tasks.get(0)));
        } catch (RuntimeException e) {
            failure = e;
        }
        for (Future<T> other : others) {
            try {
                results.add(other.get());
            } catch (InterruptedException e) {
                others.forEach(future -> future.cancel(true));
                Thread.currentThread().interrupt();
                throw new RenderException("the render was interrupted");
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException runtime
                            ? runtime
                            : new RenderException("a render step failed: " + e.getCause().getMessage());
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return results;
    }

    private static <T> T call(Callable<T> task) {
        try {
            return task.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new RenderException("a render step failed: " + e.getMessage());
        }
    }
}
