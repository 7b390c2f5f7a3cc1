// A CUDA activity tracer for machines without Nsight Systems (the device
// machine has ncu but no nsys): preload it into any saga program and it
// writes every kernel, copy, memset and CUDA runtime call with its start and
// end times (ns) to $SAGA_TRACE_OUT (CSV). tools/trace_summary.py reads it:
// where the GPU sits idle and what the host does meanwhile (launch-bound
// setups of small levels, host synchronisations).
//
// Built with the CUDA backend as build*/tools/libsaga_trace.so (target saga_trace):
//   SAGA_TRACE_OUT=trace.csv LD_PRELOAD=build-device/tools/libsaga_trace.so build-device/tools/saga profile-setup ...
#include <cupti.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Event {
  char kind;  // K kernel, C copy, S memset, R runtime call
  std::string name;
  unsigned long long start, end;
  unsigned corr;
};
std::mutex events_mutex;
std::vector<Event>* events = nullptr;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 16u << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  std::lock_guard<std::mutex> lock(events_mutex);
  CUpti_Activity* r = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
    switch (r->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      case CUPTI_ACTIVITY_KIND_KERNEL: {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(r);
        events->push_back({'K', k->name ? k->name : "?", k->start, k->end, k->correlationId});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* c = reinterpret_cast<const CUpti_ActivityMemcpy6*>(r);
        events->push_back({'C', "copy kind " + std::to_string(c->copyKind) + " bytes " + std::to_string(c->bytes),
                           c->start, c->end, c->correlationId});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* s = reinterpret_cast<const CUpti_ActivityMemset4*>(r);
        events->push_back({'S', "memset bytes " + std::to_string(s->bytes), s->start, s->end, s->correlationId});
        break;
      }
      case CUPTI_ACTIVITY_KIND_RUNTIME: {
        const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(r);
        const char* name = nullptr;
        cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, a->cbid, &name);
        events->push_back({'R', name ? name : "?", a->start, a->end, a->correlationId});
        break;
      }
      default:
        break;
    }
  }
  std::free(buffer);
}

struct Tracer {
  Tracer() {
    if (!std::getenv("SAGA_TRACE_OUT")) return;
    events = new std::vector<Event>();
    events->reserve(1 << 20);
    check(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "register callbacks");
    check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "enable kernels");
    check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), "enable copies");
    check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET), "enable memsets");
    check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME), "enable runtime calls");
  }
  static void check(CUptiResult r, const char* what) {
    if (r == CUPTI_SUCCESS) return;
    const char* msg = nullptr;
    cuptiGetResultString(r, &msg);
    std::fprintf(stderr, "saga trace: %s failed: %s\n", what, msg ? msg : "?");
  }
  ~Tracer() {
    if (!events) return;
    check(cuptiActivityFlushAll(1), "flush");
    // A process with no CUDA work (a wrapper such as `timeout` that inherited
    // LD_PRELOAD) must not overwrite the traced program's file.
    if (events->empty()) return;
    std::FILE* f = std::fopen(std::getenv("SAGA_TRACE_OUT"), "w");
    if (!f) return;
    std::fprintf(f, "kind,start_ns,end_ns,corr,name\n");
    std::lock_guard<std::mutex> lock(events_mutex);
    for (const Event& e : *events) {
      std::string n = e.name;
      for (char& ch : n)
        if (ch == ',' || ch == '\n') ch = ';';
      std::fprintf(f, "%c,%llu,%llu,%u,%s\n", e.kind, e.start, e.end, e.corr, n.c_str());
    }
    std::fclose(f);
    std::fprintf(stderr, "saga trace: %zu events to %s\n", events->size(), std::getenv("SAGA_TRACE_OUT"));
  }
};
Tracer tracer;

}  // namespace
