//! Uploads and downloads with the real-node parameters (erasure level, upload mode, retrieval
//! strategy, fallback mode): the one mapping from a plan unit's param and from an `ops` line to
//! bee-rs's own options (`RedundantUploadOptions`, `FileUploadOptions`, `DownloadOptions`),
//! shared by the net cases and the `ops` subcommand. Every parameter is optional: absent, the
//! option stays `None` and bee-rs sends no header (the node's default applies).
//!
//! bee-rs 1.7.0 has an option for each of them, so nothing here is skipped for want of an API.
//! One thing it cannot express: an explicit level 0 (`RedundancyLevel::Off` omits the
//! `Swarm-Redundancy-Level` header), which the node reads as its default, level 0, anyway.

use bee::api::{
    DownloadOptions, FileUploadOptions, RedundancyLevel, RedundancyStrategy,
    RedundantUploadOptions, UploadOptions, UploadResult,
};
use bee::swarm::{BatchId, Reference};
use bytes::Bytes;
use serde::Deserialize;
use serde_json::Value;

use crate::plan::Param;

/// Content type of every `/bzz` upload.
pub const CONTENT_TYPE: &str = "application/octet-stream";

/// An erasure level 0..4 (`redundancy_level` of a plan param, `level` of an ops line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "u64")]
pub struct Level(pub RedundancyLevel);

impl TryFrom<u64> for Level {
    type Error = String;

    fn try_from(n: u64) -> Result<Self, String> {
        Ok(Self(match n {
            0 => RedundancyLevel::Off,
            1 => RedundancyLevel::Medium,
            2 => RedundancyLevel::Strong,
            3 => RedundancyLevel::Insane,
            4 => RedundancyLevel::Paranoid,
            _ => {
                return Err(format!(
                    "an erasure level is 0..4 (NONE, MEDIUM, STRONG, INSANE, PARANOID), got {n}"
                ));
            }
        }))
    }
}

/// A retrieval strategy by its Swarm name (`Swarm-Redundancy-Strategy` 0..3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Strategy {
    None,
    Data,
    Prox,
    Race,
}

impl From<Strategy> for RedundancyStrategy {
    fn from(s: Strategy) -> Self {
        match s {
            Strategy::None => Self::None,
            Strategy::Data => Self::Data,
            Strategy::Prox => Self::Proximity,
            Strategy::Race => Self::Race,
        }
    }
}

/// The two upload endpoints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Endpoint {
    #[default]
    Bytes,
    Bzz,
}

impl Endpoint {
    /// The download call as errors name it.
    pub fn get(self) -> &'static str {
        match self {
            Self::Bytes => "GET /bytes",
            Self::Bzz => "GET /bzz",
        }
    }
}

/// Upload parameters: `redundancy_level`, `deferred`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Upload {
    #[serde(default)]
    pub redundancy_level: Option<Level>,
    #[serde(default)]
    pub deferred: Option<bool>,
    /// Set by `net.bzz.upload.encrypted`, never by a param.
    #[serde(skip)]
    pub encrypt: bool,
}

/// Download parameters: `redundancy_level` (of the untimed upload that makes the reference),
/// `strategy`, `fallback`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Download {
    #[serde(default)]
    pub redundancy_level: Option<Level>,
    #[serde(default)]
    pub strategy: Option<Strategy>,
    #[serde(default)]
    pub fallback: Option<bool>,
}

/// The parameters of type `T` in a plan param (its other keys are the case's own); an error
/// names the key: `param "redundancy_level": an erasure level is 0..4 …`.
pub fn from_param<T: for<'de> Deserialize<'de>>(p: &Param) -> anyhow::Result<T> {
    serde_path_to_error::deserialize(Value::Object(p.clone())).map_err(|e| {
        anyhow::anyhow!(
            "param \"{}\": {}",
            e.path().to_string().trim_start_matches('.'),
            e.inner()
        )
    })
}

impl Upload {
    fn base(&self) -> UploadOptions {
        UploadOptions {
            deferred: self.deferred,
            encrypt: self.encrypt.then_some(true),
            ..Default::default()
        }
    }

    fn level(&self) -> Option<RedundancyLevel> {
        self.redundancy_level.map(|l| l.0)
    }

    /// POST /bytes.
    pub fn bytes_options(&self) -> RedundantUploadOptions {
        RedundantUploadOptions {
            base: self.base(),
            redundancy_level: self.level(),
        }
    }

    /// POST /bzz.
    pub fn file_options(&self) -> FileUploadOptions {
        FileUploadOptions {
            base: self.base(),
            redundancy_level: self.level(),
            ..Default::default()
        }
    }

    /// A direct upload (`deferred: false`): a dev node refuses it.
    pub fn direct(&self) -> bool {
        self.deferred == Some(false)
    }
}

impl Download {
    pub fn options(&self) -> DownloadOptions {
        DownloadOptions {
            redundancy_strategy: self.strategy.map(Into::into),
            fallback: self.fallback,
            ..Default::default()
        }
    }

    /// The upload that makes the reference: at the unit's level, deferred (explicitly, so a
    /// download case never depends on the node's default upload mode).
    pub fn upload(&self) -> Upload {
        Upload {
            redundancy_level: self.redundancy_level,
            deferred: Some(true),
            encrypt: false,
        }
    }
}

/// One upload of `body` to `endpoint` (`/bzz` as the single file `file_name`).
pub async fn upload(
    client: &bee::Client,
    batch: &BatchId,
    endpoint: Endpoint,
    body: Bytes,
    file_name: &str,
    params: &Upload,
) -> Result<UploadResult, bee::Error> {
    let file = client.file();
    match endpoint {
        Endpoint::Bytes => {
            file.upload_data(batch, body, Some(&params.bytes_options()))
                .await
        }
        Endpoint::Bzz => {
            file.upload_file(
                batch,
                body,
                file_name,
                CONTENT_TYPE,
                Some(&params.file_options()),
            )
            .await
        }
    }
}

/// The response of one download from `endpoint`, its body not yet read.
pub async fn download(
    client: &bee::Client,
    endpoint: Endpoint,
    reference: &Reference,
    options: &DownloadOptions,
) -> Result<reqwest::Response, bee::Error> {
    let file = client.file();
    match endpoint {
        Endpoint::Bytes => file.download_data_response(reference, Some(options)).await,
        Endpoint::Bzz => file.download_file_response(reference, Some(options)).await,
    }
}

/// A dev node's refusal of a direct upload: 400 "operation not supported in dev mode".
pub fn refuses_direct_upload(e: &bee::Error) -> bool {
    matches!(e, bee::Error::Response { status: 400, body, .. }
        if crate::cases::bee_message(body).contains("not supported"))
}

#[cfg(test)]
mod tests;
