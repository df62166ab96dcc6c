// A Go Automation API program that declares the provider plugin's resource by its type token, with no generated
// SDK (the generic ctx.RegisterResource), as a Go team would before an SDK is published. The program runs
// inline, in this process, so no Go language host is needed (the module proxy here does not serve one).
//
//	go-program up|destroy
//
// reads everything from the environment (set by test/plugin/goProgram.plugin.test.ts): SHIPPING_GO_WORK_DIR,
// SHIPPING_GO_BACKEND, SHIPPING_PULUMI_ROOT (the folder whose bin/pulumi is the CLI), SHIPPING_PLUGIN_DIR (the
// folder holding pulumi-resource-shipping), SHIPPING_GO_BASE_URL, SHIPPING_GO_API_KEY, SHIPPING_GO_HOOK,
// SHIPPING_GO_URL, PULUMI_CONFIG_PASSPHRASE. It prints one JSON line: the operation's result and the
// subscription's id.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// subscription is the plugin's resource as the program sees it: its outputs by their schema names.
type subscription struct {
	pulumi.CustomResourceState

	Hook           pulumi.StringOutput `pulumi:"hook"`
	SubscriptionID pulumi.IntOutput    `pulumi:"subscriptionId"`
}

// result is what the test reads from the program's one line of output.
type result struct {
	Operation      string         `json:"operation"`
	Result         string         `json:"result"`
	Changes        map[string]int `json:"changes"`
	SubscriptionID float64        `json:"subscriptionId,omitempty"`
}

func env(name string) string {
	value := os.Getenv(name)
	if value == "" {
		fmt.Fprintf(os.Stderr, "go-program: %s is not set\n", name)
		os.Exit(2)
	}
	return value
}

func program(ctx *pulumi.Context) error {
	var hook subscription
	err := ctx.RegisterResource("shipping:index:WebhookSubscription", "go-orders", pulumi.Map{
		"hook": pulumi.String(env("SHIPPING_GO_HOOK")),
		"url":  pulumi.String(env("SHIPPING_GO_URL")),
	}, &hook)
	if err != nil {
		return err
	}
	ctx.Export("subscriptionId", hook.SubscriptionID)
	return nil
}

func run(operation string) (result, error) {
	ctx := context.Background()
	command, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: env("SHIPPING_PULUMI_ROOT"), SkipVersionCheck: false})
	if err != nil {
		return result{}, err
	}
	project := workspace.Project{
		Name:    tokens.PackageName("go-hooks"),
		Runtime: workspace.NewProjectRuntimeInfo("go", nil),
		Backend: &workspace.ProjectBackend{URL: env("SHIPPING_GO_BACKEND")},
		Plugins: &workspace.Plugins{Providers: []workspace.PluginOptions{{Name: "shipping", Path: env("SHIPPING_PLUGIN_DIR")}}},
	}
	stack, err := auto.UpsertStackInlineSource(ctx, "dev", "go-hooks", program,
		auto.Pulumi(command),
		auto.WorkDir(env("SHIPPING_GO_WORK_DIR")),
		auto.Project(project),
		auto.EnvVars(map[string]string{
			"PULUMI_CONFIG_PASSPHRASE": env("PULUMI_CONFIG_PASSPHRASE"),
			"PULUMI_SKIP_UPDATE_CHECK": "1",
		}),
	)
	if err != nil {
		return result{}, err
	}
	if err := stack.SetConfig(ctx, "shipping:baseUrl", auto.ConfigValue{Value: env("SHIPPING_GO_BASE_URL")}); err != nil {
		return result{}, err
	}
	if err := stack.SetConfig(ctx, "shipping:apiKey", auto.ConfigValue{Value: env("SHIPPING_GO_API_KEY"), Secret: true}); err != nil {
		return result{}, err
	}
	switch operation {
	case "up":
		up, err := stack.Up(ctx, optup.ProgressStreams(os.Stderr), optup.ErrorProgressStreams(os.Stderr))
		if err != nil {
			return result{}, err
		}
		out := result{Operation: "up", Result: string(up.Summary.Result), Changes: changes(up.Summary.ResourceChanges)}
		if id, ok := up.Outputs["subscriptionId"].Value.(float64); ok {
			out.SubscriptionID = id
		}
		return out, nil
	case "destroy":
		destroy, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stderr), optdestroy.ErrorProgressStreams(os.Stderr))
		if err != nil {
			return result{}, err
		}
		return result{Operation: "destroy", Result: string(destroy.Summary.Result), Changes: changes(destroy.Summary.ResourceChanges)}, nil
	}
	return result{}, fmt.Errorf("unknown operation %q: up or destroy", operation)
}

func changes(counts *map[string]int) map[string]int {
	if counts == nil {
		return map[string]int{}
	}
	return *counts
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go-program up|destroy")
		os.Exit(2)
	}
	out, err := run(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "go-program: %v\n", err)
		os.Exit(1)
	}
	line, _ := json.Marshal(out)
	fmt.Println(string(line))
}
