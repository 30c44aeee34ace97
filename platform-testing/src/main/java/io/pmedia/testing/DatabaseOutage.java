package io.pmedia.testing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;

/**
 * A PostgreSQL outage a test can start and end: {@link PostgresTestResource} with {@code outages=true} puts a TCP
 * proxy between the service and its real database, and a test switches it between forwarding, {@link #refuse()}
 * (the server is stopped: connections refused, open ones dropped) and {@link #hang()} (a network that swallows
 * packets: connections accepted and never answered). The service started normally through the proxy, Flyway
 * included; every switch drops the connections open at that moment, as a restart or a partition would.
 *
 * <p>
 * Tests drive the proxy over HTTP (a control port in a system property), so it works whichever class loader a test
 * runs in. {@link #end()} is safe to call when no outage is on; call it after each test that starts one.
 */
public final class DatabaseOutage implements AutoCloseable {

    private static final String CONTROL_PORT_PROPERTY = "pmediatest.db-proxy.control-port";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private enum Mode {
        FORWARD, REFUSE, HANG
    }

    private final InetSocketAddress target;
    private final ExecutorService threads = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "db-outage-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final HttpServer control;
    private final int port;
    private volatile Mode mode = Mode.FORWARD;
    private ServerSocket listener;

    /** The PostgreSQL server is stopped: new connections are refused, open ones end. */
    public static void refuse() {
        switchTo(Mode.REFUSE);
    }

    /** The network swallows packets: new connections are accepted and never answered, open ones end. */
    public static void hang() {
        switchTo(Mode.HANG);
    }

    /** PostgreSQL is back. */
    public static void end() {
        switchTo(Mode.FORWARD);
    }

    /** Waits until the service's readiness ({@code /q/health/ready} on its management port) reports UP again. */
    public static void awaitReady(URL readiness, Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> assertThat(given()
                .get(readiness).then().statusCode(200).extract().jsonPath().getString("status")).isEqualTo("UP"));
    }

    DatabaseOutage(String host, int port) {
        this.target = new InetSocketAddress(host, port);
        try {
            this.listener = listen(0);
            this.port = listener.getLocalPort();
            this.control = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the database proxy", e);
        }
        control.createContext("/", exchange -> {
            mode(Mode.valueOf(exchange.getRequestURI().getPath().substring(1)));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        control.start();
        System.setProperty(CONTROL_PORT_PROPERTY, Integer.toString(control.getAddress().getPort()));
    }

    /** The port the service connects to instead of PostgreSQL's. */
    int port() {
        return port;
    }

    private synchronized void mode(Mode next) throws IOException {
        mode = next;
        open.forEach(this::release);
        if (next == Mode.REFUSE && listener != null) {
            listener.close();
            listener = null;
        } else if (next != Mode.REFUSE && listener == null) {
            listener = listen(port);
        }
    }

    private ServerSocket listen(int onPort) throws IOException {
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress("127.0.0.1", onPort));
        threads.execute(() -> accept(server));
        return server;
    }

    private void accept(ServerSocket server) {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            open.add(client);
            if (mode == Mode.FORWARD) {
                threads.execute(() -> forward(client));
            }
        }
    }

    private void forward(Socket client) {
        Socket upstream = new Socket();
        try {
            // Without TCP_NODELAY on both legs, Nagle's algorithm meets delayed ACKs and every small exchange of the
            // PostgreSQL protocol waits about 40 ms.
            client.setTcpNoDelay(true);
            upstream.setTcpNoDelay(true);
            upstream.connect(target, 2000);
        } catch (IOException e) {
            release(client);
            release(upstream);
            return;
        }
        open.add(upstream);
        threads.execute(() -> pump(client, upstream));
        pump(upstream, client);
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            // One side went away (or the test cut it): the other one ends too, below.
        } finally {
            release(from);
            release(to);
        }
    }

    private void release(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // Already gone.
        }
    }

    @Override
    public synchronized void close() {
        control.stop(0);
        try {
            mode(Mode.REFUSE);
        } catch (IOException e) {
            // Nothing left to release.
        }
        threads.shutdownNow();
    }

    private static void switchTo(Mode mode) {
        String port = System.getProperty(CONTROL_PORT_PROPERTY);
        if (port == null) {
            throw new IllegalStateException("no database proxy: give PostgresTestResource the initArg outages=true");
        }
        try {
            HttpResponse<Void> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/" + mode.name())).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() != 204) {
                throw new IllegalStateException("database proxy answered " + response.statusCode());
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
