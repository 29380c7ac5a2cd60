module github.com/svc-assistant/sdk-go

go 1.24.0

require github.com/oapi-codegen/runtime v1.8.0

require (
	github.com/apapsch/go-jsonmerge/v2 v2.0.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
)
