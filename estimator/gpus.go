package estimator

import (
	"strconv"
	"strings"
)

// GPU is one entry of the GPU menu: a device and its capacity as the
// trainer sees it, the total memory the CUDA or ROCm runtime reports
// (nvidia-smi's memory.total in MiB; rocminfo's pool size on AMD), with
// where the figure comes from. The figures differ between drivers, ECC
// settings and board variants: Source says how sure each one is, and the
// custom entry takes the capacity a user types.
type GPU struct {
	ID            string // the menu's and the link's value: "h100"
	Name          string // "H100 80GB"
	CapacityBytes int64  // 0 for the custom entry
	Source        string // where the figure comes from, and how certain it is
}

// CustomGPU is the ID of the menu's last entry: the capacity as typed.
const CustomGPU = "custom"

// mib is n MiB in bytes.
const mib = 1 << 20

// gpus is the menu, in its order. H100 and H200 keep the capacities links
// and tests have used since the first release.
var gpus = []GPU{
	{"h100", "H100 80GB", H100CapacityBytes,
		"Kept from the first release, which links and tests use: 85,020,000,000 bytes (81,081.4 MiB), about what " +
			"PyTorch reports on an H100 80GB HBM3, where 81,082 to 81,090 MiB have been seen; an estimate, not one " +
			"measured figure. nvidia-smi shows 81,559 MiB (85,520,809,984 bytes) on recent drivers " +
			"(modal-labs/modal-client#2797)."},
	{"h200", "H200", H200CapacityBytes,
		"nvidia-smi memory.total on an H200 (141 GB HBM3e): 143,771 MiB. PyTorch has been seen to report 143,156 MiB " +
			"on some systems; driver and ECC settings move it."},
	{"b200", "B200", 183359 * mib,
		"nvidia-smi memory.total on a B200 (HGX, driver 580.95.05, NVIDIA/TensorRT-LLM#10278): 183,359 MiB. The CUDA " +
			"runtime's totalGlobalMem printed as 178.35 GiB (about 182,630 MiB) on another system (pytorch/ao#4002): " +
			"the runtime may report some 700 MiB less."},
	{"gb200", "GB200", 189471 * mib,
		"nvidia-smi memory.total per Blackwell GPU of a GB200 superchip (driver 580.95.05), as it appears in several " +
			"published nvidia-smi outputs: 189,471 MiB. No vendor figure in MiB; not checked against the CUDA runtime."},
	{"a100-40gb", "A100 40GB", 40536 * mib,
		"PyTorch's total_memory on an A100-SXM4-40GB as Ultralytics prints it, rounded down to whole MiB: 40,536 MiB " +
			"(the true figure may be up to 1 MiB more); not checked against nvidia-smi, which shows 40,960 MiB on " +
			"some systems (modal-labs/modal-client#2797)."},
	{"a100-80gb", "A100 80GB", 81251 * mib,
		"nvidia-smi memory.total on an A100-SXM4-80GB with recent drivers, also what PyTorch reports (Ultralytics " +
			"prints CUDA:0 (NVIDIA A100-SXM4-80GB, 81251MiB)): 81,251 MiB. Some systems show 81,920 MiB " +
			"(modal-labs/modal-client#2797); the PCIe card may differ."},
	{"mi300x", "MI300X", 196592 * mib,
		"rocminfo's global pool of an MI300X on ROCm 6.3 (ROCm/legacy-rocm-build#4414, ROCm/rocm-examples#187): " +
			"201,310,208 KB = 196,592 MiB, which PyTorch shows as 191.98 GiB. Other ROCm releases show " +
			"200,998,912 KB (196,288 MiB, 205,822,885,888 bytes)."},
	{"l40s", "L40S", 46068 * mib,
		"nvidia-smi memory.total on an L40S (modal-labs/modal-client#2797): 46,068 MiB. PyTorch has been seen to " +
			"report 45,495 MiB (as Ultralytics prints it), so the runtime may see about 570 MiB less."},
	{"rtx4090", "RTX 4090", 24564 * mib,
		"nvidia-smi memory.total on a GeForce RTX 4090 (driver 550.163.01, RLinf/RLinf#255): 24,564 MiB; PyTorch " +
			"reports the same as 23.99 GiB. A display attached to the card takes some of it."},
	{CustomGPU, "custom", 0, "The capacity as typed into capacity_bytes."},
}

// GPUs is the GPU menu in its order, the custom entry last. The slice is
// a copy.
func GPUs() []GPU { return append([]GPU(nil), gpus...) }

// Label is the menu text: the name and the capacity in MiB, "H200
// (143,771 MiB)". A capacity that is not a whole number of MiB is shown
// rounded, "H100 80GB (about 81,081 MiB)"; the custom entry is "custom
// bytes".
func (g GPU) Label() string {
	if g.ID == CustomGPU {
		return "custom bytes"
	}
	if g.CapacityBytes%mib == 0 {
		return g.Name + " (" + Group(g.CapacityBytes/mib) + " MiB)"
	}
	return g.Name + " (about " + Group((g.CapacityBytes+mib/2)/mib) + " MiB)"
}

// GPUForCapacity is the menu entry whose capacity is exactly capacity, or
// the custom entry when none is.
func GPUForCapacity(capacity int64) GPU {
	for _, g := range gpus {
		if g.ID != CustomGPU && g.CapacityBytes == capacity {
			return g
		}
	}
	return gpus[len(gpus)-1]
}

// GPUByID is the menu entry of an ID ("h100", "custom"), the other way
// from GPUForCapacity. An unknown ID gets an error listing the IDs; its
// message is what the menu shows beside itself.
func GPUByID(id string) (GPU, error) {
	ids := make([]string, len(gpus))
	for i, g := range gpus {
		if g.ID == id {
			return g, nil
		}
		ids[i] = g.ID
	}
	return GPU{}, parseError("must be " + strings.Join(ids[:len(ids)-1], ", ") + " or " + ids[len(ids)-1] +
		", got " + strconv.Quote(id))
}
