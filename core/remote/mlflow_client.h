#pragma once
// MlflowClient: the calls Osprey makes to an MLflow tracking server over its REST API (2.0 endpoints),
// and the artifact upload through the server's artifact proxy (`mlflow server`, which serves artifacts
// by default since MLflow 2.0). Credentials come from the environment as MLflow's own clients read them
// (MLFLOW_TRACKING_TOKEN as a bearer token, else MLFLOW_TRACKING_USERNAME/PASSWORD as basic auth); they
// live in memory only and are never written to disk, logs or error texts.
//
// Thread affinity: one object per thread (it owns an HttpSession).

#include "common/expected.h"
#include "remote/http_session.h"

#include <filesystem>
#include <string>

namespace osprey::remote {

inline constexpr const char* kMlflowUriEnv = "MLFLOW_TRACKING_URI";
inline constexpr const char* kMlflowExperimentEnv = "MLFLOW_EXPERIMENT_NAME";

/// Checks a tracking URI and returns it without trailing slashes. Only http(s) servers are reachable
/// through the REST API; a file store, `databricks` or a URI with credentials in it is refused with a
/// message that says what to use instead.
Expected<std::string> checkTrackingUri(const std::string& uri);

/// What a sender does with an MLflow answer: the platform's table, with 403 counted as a refused login and
/// a 404 that does not come from MLflow ("ENDPOINT_NOT_FOUND", or not JSON) as "not an MLflow server".
enum class MlflowOutcome { Success, Retry, Reject, Refused, NotMlflow };
MlflowOutcome classifyMlflow(const HttpResponse& response);
/// The MLflow error code of an answer ("RESOURCE_DOES_NOT_EXIST", ...), empty when there is none.
std::string mlflowErrorCode(const HttpResponse& response);

class MlflowClient {
public:
    /// `uri` as checkTrackingUri returns it.
    explicit MlflowClient(std::string uri, ClientOptions options = {});
    const std::string& uri() const { return m_uri; }

    /// GET an endpoint under /api/2.0/mlflow/ with a query ("experiments/get-by-name?experiment_name=x").
    HttpResponse get(const std::string& endpointAndQuery);
    /// POST a JSON body to an endpoint under /api/2.0/mlflow/ ("runs/log-batch").
    HttpResponse post(const std::string& endpoint, const std::string& bodyJson);
    /// PUT a file to the artifact proxy: `proxyPath` is the part of an `mlflow-artifacts:/` URI after the
    /// scheme, joined with the artifact's relative path ("1/<run>/artifacts/weights/best.pt").
    UploadResult putArtifact(const std::string& proxyPath, const std::filesystem::path& file);

private:
    std::vector<std::string> headers(bool json) const;

    std::string m_uri;
    ClientOptions m_options;
    std::string m_authorization; ///< the whole header line, or empty
    HttpSession m_session;
};

} // namespace osprey::remote
