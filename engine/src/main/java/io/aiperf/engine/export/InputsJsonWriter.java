package io.aiperf.engine.export;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;

/**
 * {@code inputs.json} (AIPerf's export docs): {@code {"data":[{"session_id", "payloads":[body per turn]}]}},
 * pretty-printed. A later turn's payload holds its own user text; on the wire it also carries the history.
 */
public final class InputsJsonWriter {
    private InputsJsonWriter() {
    }

    public static byte[] bytes(final List<RunReport.Input> inputs) {
        final ObjectNode root = SummaryJsonWriter.JSON.createObjectNode();
        final ArrayNode data = root.putArray("data");
        try {
            for (final RunReport.Input in : inputs) {
                final ObjectNode item = data.addObject();
                item.put("session_id", in.sessionId());
                final ArrayNode payloads = item.putArray("payloads");
                for (final byte[] body : in.payloads()) {
                    payloads.add(SummaryJsonWriter.JSON.readTree(body));
                }
            }
            return SummaryJsonWriter.JSON.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
