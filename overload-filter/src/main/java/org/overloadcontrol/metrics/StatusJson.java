package org.overloadcontrol.metrics;

import java.util.Comparator;
import java.util.List;
import org.overloadcontrol.admission.ClassController;
import org.overloadcontrol.admission.QueueThresholdController;
import org.overloadcontrol.engine.Endpoint;
import org.overloadcontrol.engine.EndpointClass;
import org.overloadcontrol.engine.OverloadEngine;
import org.overloadcontrol.engine.Outcome;
import org.overloadcontrol.engine.RequestClass;
import org.overloadcontrol.queue.EndpointPermits;
import org.overloadcontrol.queue.WaitQueues;

/**
 * The {@code /overload/status} document: everything the metrics say, as one JSON object that a
 * person, a script or the dashboard can read in one request. Field names and units are listed in
 * {@code docs/observability.md}; times are seconds, rates requests per second, counts since
 * start, and a value that is not known yet or does not apply is {@code null}.
 *
 * <pre>
 * { "tickerSeconds": 12.5, "queues": {...} | null,
 *   "endpoints": [ { "name", "overloaded", "admissionEnabled", "degradable", "quality",
 *                    "minQuality", "permitsInUse",
 *                    "permitsLimit", "waiting", "queueThreshold",
 *                    "classes": [ { "name", "rank", "kind", "controlled", "p90EstimateSeconds",
 *                                   "p90SampleSeconds", "targetSeconds", "admissionRate",
 *                                   "arrivals", "enqueued", "abandoned", "waitSeconds",
 *                                   "outcomes": { "completed", "rejected", "expired",
 *                                                 "redirected", "failed" } } ] } ] }
 * </pre>
 */
public final class StatusJson {

  private StatusJson() {}

  /** The document for {@code engine} now. */
  public static String write(OverloadEngine engine, OverloadWatch watch) {
    JsonWriter w = new JsonWriter().beginObject();
    w.field("tickerSeconds", engine.ticker().read() / 1e9);
    w.name("queues");
    WaitQueues queues = engine.queues();
    if (queues == null) {
      w.value((String) null);
    } else {
      w.beginObject()
          .field("order", engine.queueSettings().order().name())
          .field("lifo", queues.lifo())
          .field("waiting", queues.waitingCount())
          .field("permitsInUse", queues.permitsInUse())
          .field("permitsLimit", Readings.limit(queues.permitLimit()))
          .name("lengths").beginObject();
      for (String q : OverloadMetrics.queueNames(engine)) {
        w.field(q, queues.queueLength(q));
      }
      w.endObject().endObject();
    }
    w.name("endpoints").beginArray();
    List<Endpoint> endpoints = engine.endpoints();
    endpoints.sort(Comparator.comparing(Endpoint::name));
    for (Endpoint e : endpoints) {
      endpoint(w, e, watch);
    }
    return w.endArray().endObject().toString();
  }

  private static void endpoint(JsonWriter w, Endpoint e, OverloadWatch watch) {
    w.beginObject()
        .field("name", e.name())
        .field("overloaded", watch.overloaded(e.name()))
        .field("admissionEnabled", e.admission().admissionEnabled())
        .field("degradable", e.qualityController() != null)
        .field("quality", e.quality())
        .field("minQuality", e.minQuality());
    EndpointPermits p = e.permits();
    w.field("permitsInUse", p == null ? Double.NaN : p.inUse())
        .field("permitsLimit", p == null ? Double.NaN : Readings.permitLimit(p))
        .field("waiting", p == null ? 0 : p.waiting());
    QueueThresholdController t = e.queueThreshold();
    w.field("queueThreshold", t == null ? Double.NaN : t.threshold());
    w.name("classes").beginArray();
    List<EndpointClass> classes = e.classes();
    classes.sort(Comparator.comparing(EndpointClass::requestClass));
    for (EndpointClass ec : classes) {
      endpointClass(w, ec);
    }
    w.endArray().endObject();
  }

  private static void endpointClass(JsonWriter w, EndpointClass ec) {
    ClassController c = ec.controller();
    RequestClass rc = ec.requestClass();
    w.beginObject()
        .field("name", rc.name())
        .field("rank", rc.rank())
        .field("kind", rc.kind().name())
        .field("controlled", c.settings().controlled())
        .field("p90EstimateSeconds", Readings.p90EstimateSeconds(c))
        .field("p90SampleSeconds", Readings.p90SampleSeconds(c))
        .field("targetSeconds", Readings.targetSeconds(c))
        .field("admissionRate", Readings.admissionRate(c))
        .field("arrivals", ec.arrivalCount())
        .field("enqueued", ec.enqueuedCount())
        .field("abandoned", ec.abandonedCount())
        .field("waitSeconds", Readings.waitSeconds(ec))
        .name("outcomes").beginObject();
    for (Outcome o : Outcome.values()) {
      w.field(o.name().toLowerCase(java.util.Locale.ROOT), ec.outcomeCount(o));
    }
    w.endObject().endObject();
  }
}
