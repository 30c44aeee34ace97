package io.pmedia.media;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import javax.imageio.ImageIO;

import com.sun.net.httpserver.HttpServer;

/** A vendor's asset host on 127.0.0.1 that counts what it serves. */
public final class AssetServer implements AutoCloseable {

    private final HttpServer server;
    private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
    /** Released at {@link #close}: what {@code /hold} paths wait for. */
    private final CountDownLatch closed = new CountDownLatch(1);
    private final ExecutorService threads = Executors.newCachedThreadPool();

    public AssetServer() throws IOException {
        byte[] png = png();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            hits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            if (path.startsWith("/hold")) {
                // a vendor's host that never answers while the test runs
                try {
                    closed.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                exchange.close();
                return;
            }
            if (path.startsWith("/redirect")) {
                exchange.getResponseHeaders().add("Location", "http://metadata.cloud.example/latest/x.png");
                exchange.sendResponseHeaders(302, -1);
                exchange.close();
                return;
            }
            byte[] body;
            String type;
            if (path.startsWith("/broken")) {
                body = "\u0089PNG but not really an image".getBytes();
                type = "image/png";
            } else if (path.endsWith(".png")) {
                body = png;
                type = "image/png";
            } else if (path.endsWith(".wav")) {
                body = tone();
                type = "audio/wav";
            } else {
                body = "<html>not an image</html>".getBytes();
                type = "text/html";
            }
            exchange.getResponseHeaders().add("Content-Type", type);
            exchange.getResponseHeaders().add("ETag", "\"v1\"");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(threads);
        server.start();
    }

    private byte[] tone;

    /** Eight seconds of a 6 kHz tone (a soundtrack whose level can be measured apart from a voice), as WAV. */
    private synchronized byte[] tone() throws IOException {
        if (tone == null) {
            Path file = Files.createTempFile("tone", ".wav");
            try {
                Process ffmpeg = new ProcessBuilder("ffmpeg", "-y", "-loglevel", "error", "-f", "lavfi", "-i",
                        "sine=frequency=6000:sample_rate=48000:duration=8", file.toString()).start();
                ffmpeg.waitFor();
                tone = Files.readAllBytes(file);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            } finally {
                Files.deleteIfExists(file);
            }
        }
        return tone;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public int hits(String path) {
        AtomicInteger count = hits.get(path);
        return count == null ? 0 : count.get();
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        threads.shutdownNow();
    }

    static byte[] png() throws IOException {
        BufferedImage image = new BufferedImage(160, 120, BufferedImage.TYPE_INT_RGB);
        Graphics2D graphics = image.createGraphics();
        graphics.setColor(new Color(230, 57, 70));
        graphics.fillRect(0, 0, 160, 120);
        graphics.setColor(Color.WHITE);
        graphics.fillOval(40, 20, 80, 80);
        graphics.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "png", out);
        return out.toByteArray();
    }
}
