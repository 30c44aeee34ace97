package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;
import io.restassured.path.json.JsonPath;

/**
 * Issue 37's complaint, through the gateway and the stack's own render pool: vendor A creates a 60-row batch task,
 * vendor B a one-row task once A's rows are queued, and B's task completes before A's is a quarter done (before the
 * bound, all of A's rows were on the render topic ahead of B's and B completed after 55 of them). The rows in flight
 * are bounded by the pool (docs/batch.md, "The bound"), so fair share decides B's row's start in batch-service.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FairShareTest {

    private static final int A_ROWS = 60;

    private Vendor a;
    private Vendor b;
    private String template;
    private String aTask;

    @BeforeAll
    void twoVendors() {
        template = ChaosTemplates.register("/fair-share.json").getString("template-id");
        a = Stack.onboard("fair share A");
        b = Stack.onboard("fair share B");
    }

    @AfterAll
    void offboard() {
        if (aTask != null) {
            a.call().post("/media/task/cancel/" + aTask);
        }
        Stack.delete(a);
        Stack.delete(b);
    }

    @Test
    void aOneRowTaskOfAnotherVendorCompletesBeforeALargeTaskIsAQuarterDone() {
        aTask = create(a, A_ROWS);
        // B arrives once A's rows are stored and A's first answer is back: everything A has is queued by then.
        Patience.await("A's first row answered").until(() -> processed(a, aTask) >= 1);
        int aBefore = processed(a, aTask);
        assertThat(aBefore).as("A's rows answered when B creates its task").isLessThan(A_ROWS / 4);

        String bTask = create(b, 1);
        JsonPath bDone = Stack.finalTask(b, bTask);
        int aAtB = processed(a, aTask);

        assertThat(bDone.getString("status")).as(bDone.prettify()).isEqualTo("COMPLETED");
        assertThat(bDone.getInt("processed")).isEqualTo(1);
        assertThat(aAtB).as("A's rows answered when B's one-row task completed (A answered %d when B came)", aBefore)
                .isLessThan(A_ROWS / 4);
    }

    private String create(Vendor vendor, int rows) {
        StringBuilder csv = new StringBuilder("user-id,name\n");
        IntStream.rangeClosed(1, rows).forEach(i -> csv.append("u-").append(i).append(",Row ").append(i).append('\n'));
        String file = Stack.upload(vendor, "fair.csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        return vendor.json(Map.of("campaign-id", "fair-" + UUID.randomUUID().toString().substring(0, 8),
                "template-id", template, "file-name", "fair.csv", "file-path", file, "row-count", rows,
                "expected-output-duration", 3)).post("/media/task/create").then().statusCode(200).extract()
                .path("task-id");
    }

    private static int processed(Vendor vendor, String task) {
        return vendor.call().get("/media/task/status/" + task).then().statusCode(200).extract().jsonPath()
                .getInt("processed");
    }
}
