package io.pmedia.gateway;

import static io.pmedia.gateway.ErrorAssertions.isError;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.pmedia.gateway.Vendors.Vendor;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The HTTP layer's own refusals carry the 2.11 body too: a request line over {@code max-initial-line-length} (414),
 * a header block over {@code max-header-size} (431), a body over {@code max-body-size} declared or chunked (413).
 */
@QuarkusTest
class HttpLimitsTest {

    @TestHTTPResource("/")
    URL root;

    @Test
    void aRequestLineOverTheLimitIs414NamingTheLimit() {
        String query = "?pad=" + "x".repeat(5000);
        isError(given().urlEncodingEnabled(false).get("/media/task/status/abc" + query).then(), 414, "BAD_REQUEST")
                .body("message", containsString("request URI is too long"))
                .body("message", containsString("the limit is 4096"));
    }

    @Test
    void aRequestLineJustUnderTheLimitIsServed() {
        // The limit is on the whole line: method, target and version, as the HTTP codec counts it.
        String target = "/no/such/path?pad=";
        String query = "x".repeat(4096 - "GET ".length() - target.length() - " HTTP/1.1".length());
        isError(given().urlEncodingEnabled(false).get(target + query).then(), 404, "NOT_FOUND");
    }

    @Test
    void headersOverTheLimitAre431NamingTheLimit() {
        isError(given().header("X-Padding", "y".repeat(25_000)).get("/templates").then(), 431, "BAD_REQUEST")
                .body("message", containsString("request headers are too large"))
                .body("message", containsString("the limit is 20480"));
    }

    @Test
    void aDeclaredBodyOverTheLimitIs413NamingTheLimit() {
        String big = "{\"client_id\":\"" + "x".repeat(1_100_000) + "\"}";
        isError(given().contentType("application/json").body(big).post("/auth/token").then(), 413,
                "PAYLOAD_TOO_LARGE").body("message", containsString("the limit of 1048576 bytes"));
    }

    @Test
    void aChunkedBodyOverTheLimitIs413NamingTheLimit() throws IOException {
        // Valid JSON as far as it goes, so that only its size can stop it.
        String body = "{\"client_id\":\"" + "x".repeat(1_100_000) + "\"}";

        String answer = postChunked("/auth/token", "application/json", body);

        assertThat(answer).startsWith("HTTP/1.1 413 ");
        assertThat(answer).containsIgnoringCase("content-type: application/json");
        JsonPath error = JsonPath.from(answer.substring(answer.indexOf("\r\n\r\n") + 4));
        assertThat(error.getBoolean("error")).isTrue();
        assertThat(error.getString("code")).isEqualTo("PAYLOAD_TOO_LARGE");
        assertThat(error.getString("message")).contains("the limit of 1048576 bytes");
    }

    @Test
    void chunkedBodiesUnderTheLimitAreServedAsAnyOther() throws IOException {
        Vendor vendor = Vendors.onboard();

        String json = postChunked("/auth/token", "application/json", "{\"client_id\":\"" + vendor.clientId()
                + "\",\"client_secret\":\"" + vendor.secret() + "\"}");
        String form = postChunked("/auth/token", "application/x-www-form-urlencoded",
                "grant_type=client_credentials&client_id=" + vendor.clientId() + "&client_secret=" + vendor.secret());

        assertThat(json).startsWith("HTTP/1.1 200 ").contains("\"access_token\"");
        assertThat(form).startsWith("HTTP/1.1 200 ").contains("\"access_token\"");
    }

    @Test
    void aFormBodyWithAFieldOver2KibIsReadLikeAShorterOne() {
        // Vert.x's default form field limit (2 KiB) answered a bare 413 here, with the body far under its 1 MiB
        isError(given().contentType("application/x-www-form-urlencoded").body("grant_type=client_credentials"
                + "&client_id=nobody&client_secret=" + "y".repeat(3000)).post("/auth/token").then(), 401,
                "UNAUTHORIZED");
    }

    @Test
    void aPathWithADotSegmentIs400AndNeverReachesTheRouteItResolvesTo() throws IOException {
        // the viewers' prefix must not lead to the operator's API or the token endpoint (an edge routes /v/* here)
        for (String path : new String[]{"/v/%2e%2e/admin/clients", "/v/%2E%2E/admin/clients", "/v/.%2e/admin/clients",
                "/v/static/../../admin/clients", "/v/./%2e%2e/admin/clients", "/admin/%2e/clients"}) {
            assertThat(badRequest(path)).as(path).contains("'.' or '..' segment");
        }
        // dots inside a segment are a name like any other
        isError(given().urlEncodingEnabled(false).get("/no/such/a..b%2E/..c").then(), 404, "NOT_FOUND");
        String admin = sendRaw("GET /admin/clients HTTP/1.1\r\nHost: localhost\r\nAuthorization: " + Vendors.ADMIN
                + "\r\nConnection: close\r\n\r\n");
        assertThat(admin).as("the same route, asked for by its name").startsWith("HTTP/1.1 200 ");
    }

    @Test
    void percentEncodedBytesThatAreNotUtf8Are400NotAnotherName() throws IOException {
        // decoded as they were, %FF%FE and %FE%FF both became U+FFFD U+FFFD: one campaign under several raw ids
        for (String target : new String[]{"/campaigns/%FF%FE/schedule", "/campaigns/a%C3/schedule",
                "/media/task/list?campaign-id=%FE%FF", "/campaigns/%ED%A0%80/schedule"}) {
            assertThat(badRequest(target)).as(target).contains("not UTF-8");
        }
        // UTF-8 percent-encoded, and a path with no escapes, go on to their routes
        isError(given().urlEncodingEnabled(false).get("/no/such/%C3%A9t%C3%A9%F0%9F%98%80").then(), 404,
                "NOT_FOUND");
    }

    @Test
    void aRequestWithoutHostIs400WithTheErrorBody() throws IOException {
        // HTTP/1.0 may leave Host out; JAX-RS's 404 then built the request's absolute URI from nothing: a 500
        String noHost = sendRaw("GET /nope HTTP/1.0\r\n\r\n");
        assertThat(noHost).matches("(?s)HTTP/1\\.[01] 400 .*").contains("\"code\":\"BAD_REQUEST\"", "no Host header");
    }

    @Test
    void a401NamesTheSchemeItWouldTake() {
        given().get("/templates").then().statusCode(401).header("WWW-Authenticate", "Bearer realm=\"pmedia\"");
        given().auth().preemptive().basic("nobody", "wrong").contentType("application/x-www-form-urlencoded")
                .body("grant_type=client_credentials").post("/auth/token").then().statusCode(401)
                .header("WWW-Authenticate", "Basic realm=\"pmedia\"");
    }

    @Test
    void anEmptyChunkedBodyIsAnsweredNotAwaited() throws IOException {
        // the edge read it, found no bytes, and Quarkus REST waited for a body that had ended: no answer at all
        String answer = sendRaw("POST /auth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
                + "\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 400 ").contains("\"code\":\"VALIDATION_ERROR\"",
                "client_id and client_secret");
    }

    /** The message of the 400 {@code BAD_REQUEST} that a raw {@code GET target} (sent as it is) answers. */
    private String badRequest(String target) throws IOException {
        String answer = sendRaw("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: " + Vendors.ADMIN
                + "\r\nConnection: close\r\n\r\n");
        assertThat(answer).as(target).startsWith("HTTP/1.1 400 ");
        JsonPath error = JsonPath.from(answer.substring(answer.indexOf("\r\n\r\n") + 4));
        assertThat(error.getString("code")).as(target).isEqualTo("BAD_REQUEST");
        return error.getString("message");
    }

    private String sendRaw(String request) throws IOException {
        try (Socket socket = new Socket(root.getHost(), root.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return readAll(socket.getInputStream());
        }
    }

    /** Sends {@code body} in chunks of at most 8 KiB (no Content-Length) and reads the whole answer. */
    private String postChunked(String path, String contentType, String body) throws IOException {
        try (Socket socket = new Socket(root.getHost(), root.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + contentType + "\r\n"
                    + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            try {
                for (int from = 0; from < bytes.length; from += 8192) {
                    int length = Math.min(8192, bytes.length - from);
                    out.write((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(bytes, from, length);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException e) {
                // The server may answer and close before it has read everything: its answer is what counts.
            }
            return readAll(socket.getInputStream());
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                answer.write(buffer, 0, read);
            }
        } catch (IOException e) {
            // A reset after the answer: keep what arrived.
        }
        return answer.toString(StandardCharsets.UTF_8);
    }
}
