package org.overloadcontrol.it.experiments.springcold;

import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The report's only handler method: 50 ms of waiting (a call to something slow, no CPU) under
 * a 100 ms response-time target, the only thing the starter is told.
 */
@RestController
public class WorkController {

  /** How long each request waits, in milliseconds. */
  static final long WORK_MILLIS = 50;

  /** Waits {@link #WORK_MILLIS} and answers a short text. */
  @GetMapping("/work")
  @ResponseTimeTarget("100ms")
  public String work() throws InterruptedException {
    Thread.sleep(WORK_MILLIS);
    return "done";
  }
}
