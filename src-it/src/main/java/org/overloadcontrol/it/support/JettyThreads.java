package org.overloadcontrol.it.support;

import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * The thread pool of a Jetty 12 server the tests start, whatever its environment (ee10, ee11):
 * apart from {@link JettyContainer}, which loads ee10 classes that an ee11 class path lacks.
 */
final class JettyThreads {

  private JettyThreads() {}

  /**
   * A bounded {@link QueuedThreadPool} of {@link Deployment#maxThreads()}, or on virtual threads
   * Jetty's {@link VirtualThreadPool} with its defaults (at most 200 jobs run at once; each job
   * beyond them still gets its virtual thread, which waits).
   */
  static ThreadPool of(Deployment deployment) {
    String name = "jetty-" + (deployment.port() == 0 ? "it" : deployment.port());
    if (deployment.virtualThreads()) {
      VirtualThreadPool pool = new VirtualThreadPool();
      pool.setName(name);
      return pool;
    }
    QueuedThreadPool threads = new QueuedThreadPool(deployment.maxThreads(), 4);
    threads.setName(name);
    return threads;
  }
}
